import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError, type ErrorKind } from '../../domain/errors.js';

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
  code: string,
  message: string,
  details?: { path?: string; message: string }[],
) {
  return reply.status(status).send({
    error: { code, message, correlation_id: String(reply.request.id), ...(details ? { details } : {}) },
  });
}

/** One error handler: typed errors keep their code, validation is 422, 5xx never leak internals. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(err)) {
      const status = err.status ?? STATUS[err.kind];
      if (status >= 500) req.log.warn({ event: 'http.error', code: err.code, err }, err.message);
      return sendError(reply, status, err.code, err.message, err.details);
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
      const code =
        status === 413
          ? 'payload_too_large'
          : status === 415
            ? 'unsupported_media_type'
            : status === 404
              ? 'not_found'
              : status === 429
                ? 'rate_limited'
                : 'bad_request';
      // Fastify's own 4xx messages (bad JSON, empty body with a content type) are safe to show
      return sendError(reply, status === 400 ? 400 : status, code, fe.message);
    }
    req.log.error({ event: 'http.unhandled_error', err }, 'unhandled error');
    return sendError(reply, 500, 'internal_error', 'an internal error occurred');
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(reply, 404, 'not_found', `route ${req.method} ${req.url.split('?')[0]} not found`),
  );
}
