import { threadId } from 'node:worker_threads';

/**
 * A synchronous embedding function that blocks its thread for `options.blockMs`: run by the local
 * provider, it must not freeze the event loop of the caller. The vector carries the thread id.
 */
export function slowEmbed(texts: string[], options: { blockMs: number }): number[][] {
  const until = Date.now() + options.blockMs;
  while (Date.now() < until) {
    // busy: a real CPU-bound model would hold the thread the same way
  }
  return texts.map((t) => [threadId, t.length]);
}

export function failingEmbed(): number[][] {
  throw new Error('model not loaded');
}
