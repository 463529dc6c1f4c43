/**
 * Outbound GETs for feeds and pages: a timeout over the whole exchange, a size limit on the body,
 * redirects followed by hand up to a bound, and at most `perHost` requests to one host at a time.
 */
export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  perHost: number;
  userAgent: string;
}

export const DEFAULT_LIMITS: FetchLimits = {
  timeoutMs: 15_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
  perHost: 2,
  userAgent: 'article-intel/1.0 (+feed reader)',
};

export interface FetchedDocument {
  status: number;
  url: string;
  headers: Headers;
  body: string;
}

export class FetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

/** A counting semaphore per host. */
class HostLimiter {
  private readonly hosts = new Map<string, { active: number; waiting: (() => void)[] }>();
  constructor(private readonly max: number) {}

  async run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    let slot = this.hosts.get(host);
    if (!slot) this.hosts.set(host, (slot = { active: 0, waiting: [] }));
    if (slot.active >= this.max) await new Promise<void>((resolve) => slot.waiting.push(resolve));
    slot.active++;
    try {
      return await fn();
    } finally {
      slot.active--;
      const next = slot.waiting.shift();
      if (next) next();
      else if (slot.active === 0) this.hosts.delete(host);
    }
  }
}

export class HttpFetcher {
  private readonly limiter: HostLimiter;
  readonly limits: FetchLimits;

  constructor(limits: Partial<FetchLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.limiter = new HostLimiter(this.limits.perHost);
  }

  /** GET with redirects; a 304 answer is returned as such (conditional GET), other non-2xx throw. */
  async get(url: string, headers: Record<string, string> = {}): Promise<FetchedDocument> {
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    let current = url;
    try {
      for (let hop = 0; ; hop++) {
        const u = new URL(current);
        if (u.protocol !== 'http:' && u.protocol !== 'https:')
          throw new FetchError(`unsupported URL ${current}`);
        const result = await this.limiter.run(
          u.host,
          async (): Promise<{ doc: FetchedDocument } | { redirect: string | null }> => {
            const res = await fetch(current, {
              headers: { 'user-agent': this.limits.userAgent, ...headers },
              redirect: 'manual',
              signal,
            });
            if (res.status >= 300 && res.status < 400 && res.status !== 304) {
              await res.body?.cancel();
              return { redirect: res.headers.get('location') };
            }
            if (res.status === 304)
              return { doc: { status: 304, url: current, headers: res.headers, body: '' } };
            if (!res.ok) {
              await res.body?.cancel();
              throw new FetchError(`HTTP ${res.status} from ${u.host}`, res.status);
            }
            return {
              doc: { status: res.status, url: current, headers: res.headers, body: await this.readBody(res) },
            };
          },
        );
        if ('doc' in result) return result.doc;
        if (!result.redirect) throw new FetchError('redirect without a location');
        if (hop >= this.limits.maxRedirects)
          throw new FetchError(`more than ${this.limits.maxRedirects} redirects`);
        current = new URL(result.redirect, current).toString();
      }
    } catch (err) {
      if (err instanceof FetchError) throw err;
      const e = err as Error;
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new FetchError(`timed out after ${this.limits.timeoutMs} ms`);
      throw new FetchError(
        `${e.message}${(e.cause as Error | undefined)?.message ? `: ${(e.cause as Error).message}` : ''}`,
      );
    }
  }

  private async readBody(res: Response): Promise<string> {
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > this.limits.maxBytes) {
      await res.body?.cancel();
      throw new FetchError(`body larger than ${this.limits.maxBytes} bytes`);
    }
    if (!res.body) return '';
    const reader = res.body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.limits.maxBytes) {
        await reader.cancel();
        throw new FetchError(`body larger than ${this.limits.maxBytes} bytes`);
      }
      parts.push(value);
    }
    return Buffer.concat(parts).toString('utf8');
  }
}
