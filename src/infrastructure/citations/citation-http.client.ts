import { setTimeout as sleep } from 'node:timers/promises';

export interface CitationHttpOptions {
  /** requests per second to this API (a limiter per adapter) */
  requestsPerSecond: number;
  /** one request, answer body included */
  timeoutMs?: number;
  /** attempts on 429 / 5xx / network errors */
  maxAttempts?: number;
  /** first backoff step when the API sends no Retry-After */
  backoffMs?: number;
  /** longest wait a Retry-After may impose; a longer one ends the lookup and pauses the client */
  maxRetryAfterMs?: number;
  /** largest answer body read */
  maxBytes?: number;
  userAgent?: string;
  /** extra headers on every request (e.g. x-api-key) */
  headers?: Record<string, string>;
}

/** The API refused for longer than this client may wait: the lookup is left for the next run. */
export class RateLimitedError extends Error {
  constructor(
    name: string,
    readonly retryAtMs: number,
  ) {
    super(`${name} asks to wait until ${new Date(retryAtMs).toISOString()}`);
  }
}

class NonRetryable extends Error {}

/** JSON GET and POST against one citation API: rate limit, timeout, size limit, retries with backoff. */
export class CitationHttpClient {
  private nextSlot = 0;
  /** a Retry-After beyond maxRetryAfterMs: no request before this time */
  private pausedUntil = 0;
  private readonly interval: number;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly maxBytes: number;

  constructor(
    readonly name: string,
    private readonly opts: CitationHttpOptions,
  ) {
    this.interval = 1000 / Math.max(1, opts.requestsPerSecond);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.maxAttempts = opts.maxAttempts ?? 4;
    this.backoffMs = opts.backoffMs ?? 500;
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? 60_000;
    this.maxBytes = opts.maxBytes ?? 1024 * 1024;
  }

  /** the parsed body, or null on 404 */
  getJson(url: string): Promise<unknown> {
    return this.request(url, { method: 'GET' });
  }

  /** POST a JSON body; the parsed answer, or null on 404 */
  postJson(url: string, body: unknown, maxBytes?: number): Promise<unknown> {
    return this.request(url, { method: 'POST', body: JSON.stringify(body) }, maxBytes);
  }

  private async request(
    url: string,
    init: { method: string; body?: string },
    maxBytes = this.maxBytes,
  ): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      await this.slot();
      let retryAfter: number | null = null;
      try {
        const res = await fetch(url, {
          ...init,
          headers: {
            accept: 'application/json',
            'user-agent': this.opts.userAgent ?? 'article-intel',
            ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...this.opts.headers,
          },
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (res.status === 404) {
          await res.body?.cancel();
          return null;
        }
        if (res.ok) return await readJson(res, maxBytes, this.name);
        await res.body?.cancel();
        if (res.status !== 429 && res.status < 500)
          throw new NonRetryable(`${this.name} answered ${res.status}`);
        retryAfter = parseRetryAfter(res.headers.get('retry-after'));
        if (retryAfter !== null && retryAfter > this.maxRetryAfterMs) {
          // honoured, not shortened: no request to this API before then, in this run or the next
          this.pausedUntil = Date.now() + retryAfter;
          throw new RateLimitedError(this.name, this.pausedUntil);
        }
        if (attempt >= this.maxAttempts) throw new Error(`${this.name} answered ${res.status}`);
      } catch (err) {
        if (err instanceof NonRetryable || err instanceof RateLimitedError || attempt >= this.maxAttempts)
          throw err;
      }
      const wait = retryAfter ?? this.backoffMs * 2 ** (attempt - 1);
      // every caller of this API waits, not only this one
      this.nextSlot = Math.max(this.nextSlot, Date.now() + wait);
    }
  }

  /** spaces requests `interval` apart, also across concurrent callers */
  private async slot(): Promise<void> {
    const now = Date.now();
    if (this.pausedUntil > now) throw new RateLimitedError(this.name, this.pausedUntil);
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + this.interval;
    if (at > now) await sleep(at - now);
  }
}

/** The body as JSON, read up to `maxBytes` (by Content-Length first, then as it streams). */
async function readJson(res: Response, maxBytes: number, name: string): Promise<unknown> {
  const tooLarge = () => new NonRetryable(`${name} answered more than ${maxBytes} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new NonRetryable(`${name} answered a body that is not JSON`);
  }
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const s = Number(header);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
