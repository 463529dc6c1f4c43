import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError, type ErrorCode, type ErrorKind } from '../../domain/errors.js';
import { STORE_CONNECTION_MESSAGES } from '../../application/jobs/transient.js';
import { codeForStatus, errorBody } from '../error-body.js';

const STATUS: Record<ErrorKind, number> = {
  Invalid: 422,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  RateLimited: 429,
  NotConfigured: 503,
  Upstream: 502,
};

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  details?: { path?: string; message: string }[],
) {
  return reply.status(status).send(errorBody(code, message, String(reply.request.id), details));
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** A database or cache connection failure (the driver's error, possibly wrapped by the ORM). */
export function isStoreUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: string; message?: string; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if ((e.code && UNAVAILABLE_CODES.has(e.code)) || (e.message && STORE_CONNECTION_MESSAGES.test(e.message)))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** One error handler: typed errors keep their code, validation is 422, 5xx never leak internals. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(err)) {
      const status = err.status ?? STATUS[err.kind];
      if (status >= 500) req.log.warn({ event: 'http.error', code: err.code, err }, err.message);
      return sendError(reply, status, err.code, err.message, err.details);
    }
    if (isStoreUnavailable(err)) {
      req.log.warn({ event: 'http.store_unavailable', err }, 'a backing store is unavailable');
      reply.header('retry-after', 5);
      return sendError(
        reply,
        503,
        'service_unavailable',
        'the service is temporarily unavailable, try again shortly',
      );
    }
    const fe = err as FastifyError;
    if (fe.validation) {
      const details = fe.validation.map((v) => ({
        path: `${fe.validationContext ?? ''}${v.instancePath || ''}${
          v.keyword === 'additionalProperties'
            ? `/${String((v.params as { additionalProperty?: string }).additionalProperty)}`
            : ''
        }`,
        message: v.keyword === 'additionalProperties' ? 'unknown field' : (v.message ?? 'invalid'),
      }));
      return sendError(reply, 422, 'validation_error', 'the request is not valid', details);
    }
    const status = fe.statusCode ?? 500;
    if (status < 500) {
      // Fastify's own 4xx messages (bad JSON, empty body with a content type) are safe to show
      return sendError(reply, status, codeForStatus(status), fe.message);
    }
    req.log.error({ event: 'http.unhandled_error', err }, 'unhandled error');
    return sendError(reply, 500, 'internal_error', 'an internal error occurred');
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(reply, 404, 'not_found', `route ${req.method} ${req.url.split('?')[0]} not found`),
  );
}
