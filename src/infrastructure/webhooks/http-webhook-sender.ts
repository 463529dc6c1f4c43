/**
 * Posts webhook deliveries. Every connection goes through the outbound guard (the address is
 * resolved and judged where the socket opens, so a name that resolves elsewhere since the URL was
 * saved is refused then), an attempt is bounded in time (10 s for connect, send and answer), a
 * redirect is an answer like any other (never followed), and at most 4 KB of the answer is read.
 */
import type { Agent, Response } from 'undici';
import { FetchRefusedError } from '../../application/pipeline/pipeline.ports.js';
import type { WebhookSender, WebhookUrlCheck } from '../../application/webhooks/webhooks.ports.js';
import {
  WEBHOOK_RESPONSE_MAX_BYTES,
  WEBHOOK_TIMEOUT_MS,
  type WebhookAttemptResult,
} from '../../domain/webhooks.js';
import type { OutboundGuard } from '../http/outbound-guard.js';

const refusedOf = (e: unknown): FetchRefusedError | null => {
  for (let c: unknown = e; c instanceof Error; c = c.cause) if (c instanceof FetchRefusedError) return c;
  return null;
};

const describe = (e: unknown): string => {
  const err = e as Error;
  const cause = err.cause as { message?: string; code?: string } | undefined;
  return [err.message, cause?.code ?? cause?.message].filter(Boolean).join(': ').slice(0, 500);
};

export class HttpWebhookSender implements WebhookSender {
  private agent: Promise<{ fetch: typeof import('undici').fetch; dispatcher: Agent }> | undefined;

  constructor(
    private readonly guard: OutboundGuard,
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
  ) {}

  private connect() {
    return (this.agent ??= (async () => {
      const undici = await import('undici');
      return {
        fetch: undici.fetch,
        dispatcher: await this.guard.dispatcher({ connectTimeoutMs: this.timeoutMs }),
      };
    })());
  }

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAttemptResult> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const { fetch, dispatcher } = await this.connect();
      const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal, dispatcher });
      const excerpt = await readAtMost(res, WEBHOOK_RESPONSE_MAX_BYTES);
      const redirect = res.status >= 300 && res.status < 400;
      return {
        statusCode: res.status,
        latencyMs: latency(),
        error: redirect
          ? `redirect to ${res.headers.get('location') ?? '(no location)'} not followed`
          : res.status >= 300
            ? `HTTP ${res.status}`
            : null,
        excerpt,
      };
    } catch (e) {
      const refused = refusedOf(e);
      if (refused)
        return {
          statusCode: null,
          latencyMs: latency(),
          error: refused.message,
          excerpt: null,
          refused: true,
        };
      const err = e as Error;
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError' || signal.aborted;
      return {
        statusCode: null,
        latencyMs: latency(),
        error: timedOut ? `timed out after ${this.timeoutMs} ms` : describe(e),
        excerpt: null,
      };
    }
  }

  async close(): Promise<void> {
    const pending = this.agent;
    this.agent = undefined;
    const a = await pending?.catch(() => undefined);
    await a?.dispatcher.close();
  }
}

/** The first `max` bytes of the body as text; the rest is not read (the stream is cancelled). */
async function readAtMost(res: Response, max: number): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = value as Uint8Array;
      parts.push(chunk);
      size += chunk.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(parts).subarray(0, max));
  return text || null;
}

/** The save-time check: the URL's host resolved and judged by the same rules as the sender's. */
export const outboundUrlCheck =
  (guard: OutboundGuard): WebhookUrlCheck =>
  async (url) => {
    try {
      await guard.addresses(new URL(url).hostname);
      return null;
    } catch (e) {
      if (e instanceof FetchRefusedError) return e.message;
      const code = (e as { code?: string }).code;
      return `${new URL(url).hostname} could not be resolved${code ? ` (${code})` : ''}`;
    }
  };
