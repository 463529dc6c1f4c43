import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AskAnswer } from '../application/ask/ask.ports.js';
import type { AskProgress } from '../application/ask/ask.service.js';
import { isAppError } from '../domain/errors.js';

export const wantsEventStream = (req: FastifyRequest) =>
  /\btext\/event-stream\b/i.test(req.headers.accept ?? '');

/** keeps idle proxies from closing a stream while the model thinks */
const KEEPALIVE_MS = 15_000;

/** Aborted when the client closes the connection before the response was written. */
export function clientGone(reply: FastifyReply): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableEnded) controller.abort(new Error('the client closed the connection'));
  };
  reply.raw.on('close', onClose);
  return { signal: controller.signal, release: () => reply.raw.off('close', onClose) };
}

/**
 * Server-sent events of one answer: `retrieved`, `delta`…, then `answer` (the whole JSON) or
 * `error` ({code, message}); the stream then ends. When the client goes away the work is aborted
 * (the model's call with it) and nothing more is written.
 */
export async function streamAnswer(
  req: FastifyRequest,
  reply: FastifyReply,
  run: (progress: AskProgress, signal: AbortSignal) => Promise<AskAnswer>,
): Promise<void> {
  const gone = clientGone(reply);
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  const send = (event: string, data: unknown) => {
    if (!gone.signal.aborted && !raw.destroyed)
      raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const keepalive = setInterval(() => {
    if (!gone.signal.aborted && !raw.destroyed) raw.write(': keep-alive\n\n');
  }, KEEPALIVE_MS);
  try {
    const answer = await run(
      {
        retrieved: (passages) => send('retrieved', { passages }),
        delta: (text) => send('delta', { text }),
      },
      gone.signal,
    );
    send('answer', answer);
  } catch (err) {
    if (gone.signal.aborted) {
      req.log.info({ event: 'ask.client_gone' }, 'the client left before the answer was complete');
    } else if (isAppError(err)) {
      send('error', { code: err.code, message: err.message });
    } else {
      req.log.error({ event: 'ask.stream_failed', err });
      send('error', { code: 'answer_failed', message: 'the answer could not be written' });
    }
  } finally {
    clearInterval(keepalive);
    gone.release();
    if (!raw.destroyed) raw.end();
  }
}
