import { setTimeout as sleep } from 'node:timers/promises';

export interface CitationHttpOptions {
  /** requests per second to this API (a limiter per adapter) */
  requestsPerSecond: number;
  timeoutMs?: number;
  /** attempts on 429 / 5xx / network errors */
  maxAttempts?: number;
  /** first backoff step when the API sends no Retry-After */
  backoffMs?: number;
  /** longest wait a Retry-After may impose */
  maxRetryAfterMs?: number;
  userAgent?: string;
}

/** JSON GET against one citation API: rate limit, timeout, and retries with backoff. */
export class CitationHttpClient {
  private nextSlot = 0;
  private readonly interval: number;
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly maxRetryAfterMs: number;

  constructor(
    readonly name: string,
    private readonly opts: CitationHttpOptions,
  ) {
    this.interval = 1000 / Math.max(1, opts.requestsPerSecond);
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.maxAttempts = opts.maxAttempts ?? 4;
    this.backoffMs = opts.backoffMs ?? 500;
    this.maxRetryAfterMs = opts.maxRetryAfterMs ?? 60_000;
  }

  /** the parsed body, or null on 404 */
  async getJson(url: string): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      await this.slot();
      let retryAfter: number | null = null;
      try {
        const res = await fetch(url, {
          headers: {
            accept: 'application/json',
            'user-agent': this.opts.userAgent ?? 'article-intelligence',
          },
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (res.status === 404) {
          await res.body?.cancel();
          return null;
        }
        if (res.ok) return (await res.json()) as unknown;
        await res.body?.cancel();
        if (res.status !== 429 && res.status < 500)
          throw new NonRetryable(`${this.name} answered ${res.status}`);
        retryAfter = parseRetryAfter(res.headers.get('retry-after'));
        if (attempt >= this.maxAttempts) throw new Error(`${this.name} answered ${res.status}`);
      } catch (err) {
        if (err instanceof NonRetryable || attempt >= this.maxAttempts) throw err;
      }
      const wait = retryAfter ?? this.backoffMs * 2 ** (attempt - 1);
      await sleep(Math.min(wait, this.maxRetryAfterMs));
    }
  }

  /** spaces requests `interval` apart, also across concurrent callers */
  private async slot(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + this.interval;
    if (at > now) await sleep(at - now);
  }
}

class NonRetryable extends Error {}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const s = Number(header);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
