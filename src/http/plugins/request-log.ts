import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Request lines ("incoming request", "request completed", a 4xx or an unknown route) at `debug`: on
 * `info` a console of busy readers was nine tenths request lines and the events that matter were
 * lost among them. Failed requests keep their level (`request errored`, 5xx at `error`), and the
 * error handler logs its own events as before.
 */
export class DebugRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`Route ${request.raw.method}:${request.raw.url} not found`);
  }
}
