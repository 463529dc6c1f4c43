/**
 * Outbound GETs for feeds and pages: a timeout over the whole exchange, a size limit on the body,
 * redirects followed by hand up to a bound, at most `perHost` requests to one host at a time, the
 * body decoded by its declared charset, and the SSRF guard on every hop of a URL that came from feed
 * content (`untrusted`) and on any redirect of a source's own URL to another host or port.
 */
import type { Agent, Response } from 'undici';
import { FetchRefusedError } from '../../application/pipeline/pipeline.ports.js';
import type { FeedProblemCode } from '../../domain/catalog.js';
import { OutboundGuard } from '../http/outbound-guard.js';
import { decodeBody } from './charset.js';

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
  headers: { get(name: string): string | null };
  body: string;
  /** the charset the body was decoded with */
  charset: string;
}

/**
 * A fetched document's bytes as they came (at most the fetch limit), not decoded: for a reader that
 * decodes them where it parses them (a parse worker), off the event loop.
 */
export interface FetchedBytes {
  status: number;
  url: string;
  headers: { get(name: string): string | null };
  bytes: Uint8Array;
}

export interface GetOptions {
  /** the URL came from feed content: every hop goes through the SSRF guard */
  untrusted?: boolean;
  /** abandons the request (its reason is what `get` throws), e.g. when the process stops */
  signal?: AbortSignal;
}

interface Client {
  fetch: typeof import('undici').fetch;
  open: Agent;
  guarded: Agent;
}

export class FetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** what went wrong, for the admin's fetch history (feedProblemOf) */
    readonly problem: FeedProblemCode = status === undefined ? 'network' : 'http_status',
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
  private client?: Promise<Client>;

  /** Without a guard, URLs from feed content may reach public addresses only. */
  constructor(
    limits: Partial<FetchLimits> = {},
    private readonly guard: OutboundGuard = new OutboundGuard(),
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.limiter = new HostLimiter(this.limits.perHost);
  }

  /** undici and its two dispatchers, made on the first fetch */
  private connect(): Promise<Client> {
    return (this.client ??= (async () => {
      const undici = await import('undici');
      const connectTimeoutMs = this.limits.timeoutMs;
      return {
        fetch: undici.fetch,
        open: new undici.Agent({ connect: { timeout: connectTimeoutMs } }),
        guarded: await this.guard.dispatcher({ connectTimeoutMs }),
      };
    })());
  }

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    if (!this.client) return;
    const { open, guarded } = await this.client;
    await Promise.all([open.close(), guarded.close()]);
  }

  /** GET with redirects; a 304 answer is returned as such (conditional GET), other non-2xx throw. */
  async get(
    url: string,
    headers: Record<string, string> = {},
    opts: GetOptions = {},
  ): Promise<FetchedDocument> {
    const doc = await this.getBytes(url, headers, opts);
    const { text, charset } =
      doc.status === 304
        ? { text: '', charset: 'utf-8' }
        : decodeBody(doc.bytes, doc.headers.get('content-type'));
    return { status: doc.status, url: doc.url, headers: doc.headers, body: text, charset };
  }

  /**
   * `get` without decoding: the body's bytes (empty for a 304). A 5 MB body decoded here took
   * ~20 ms of the event loop and as long again to copy the text to a parse worker; its bytes move
   * to the worker without a copy (`ParsePool`).
   */
  async getBytes(
    url: string,
    headers: Record<string, string> = {},
    opts: GetOptions = {},
  ): Promise<FetchedBytes> {
    const timeout = AbortSignal.timeout(this.limits.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    const { fetch, open, guarded } = await this.connect();
    let current = url;
    // host with its port: another port of the same host is another service, judged like any hop
    const origin = new URL(url).host;
    try {
      for (let hop = 0; ; hop++) {
        const u = new URL(current);
        if (u.protocol !== 'http:' && u.protocol !== 'https:')
          throw new FetchError(`unsupported URL ${current}`, undefined, 'unknown');
        const dispatcher = opts.untrusted || u.host !== origin ? guarded : open;
        const result = await this.limiter.run(
          u.host,
          async (): Promise<{ doc: FetchedBytes } | { redirect: string | null }> => {
            const res = await fetch(current, {
              headers: { 'user-agent': this.limits.userAgent, ...headers },
              redirect: 'manual',
              signal,
              dispatcher,
            });
            if (res.status >= 300 && res.status < 400 && res.status !== 304) {
              await res.body?.cancel();
              return { redirect: res.headers.get('location') };
            }
            if (res.status === 304)
              return { doc: { status: 304, url: current, headers: res.headers, bytes: new Uint8Array() } };
            if (!res.ok) {
              await res.body?.cancel();
              throw new FetchError(`HTTP ${res.status} from ${u.host}`, res.status);
            }
            const bytes = await this.readBody(res);
            return { doc: { status: res.status, url: current, headers: res.headers, bytes } };
          },
        );
        if ('doc' in result) return result.doc;
        if (!result.redirect) throw new FetchError('redirect without a location', undefined, 'redirects');
        if (hop >= this.limits.maxRedirects)
          throw new FetchError(`more than ${this.limits.maxRedirects} redirects`, undefined, 'redirects');
        current = new URL(result.redirect, current).toString();
      }
    } catch (err) {
      // abandoned by the caller: its reason, not a failure of the source
      if (opts.signal?.aborted) throw opts.signal.reason;
      if (err instanceof FetchError || err instanceof FetchRefusedError) throw err;
      const e = err as Error;
      if (e.cause instanceof FetchRefusedError) throw e.cause;
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new FetchError(`timed out after ${this.limits.timeoutMs} ms`, undefined, 'timeout');
      throw new FetchError(
        `${e.message}${(e.cause as Error | undefined)?.message ? `: ${(e.cause as Error).message}` : ''}`,
      );
    }
  }

  private async readBody(res: Response): Promise<Uint8Array> {
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > this.limits.maxBytes) {
      await res.body?.cancel();
      throw new FetchError(`body larger than ${this.limits.maxBytes} bytes`, undefined, 'too_large');
    }
    if (!res.body) return new Uint8Array();
    const reader = res.body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.limits.maxBytes) {
        await reader.cancel();
        throw new FetchError(`body larger than ${this.limits.maxBytes} bytes`, undefined, 'too_large');
      }
      parts.push(value);
    }
    return Buffer.concat(parts);
  }
}
