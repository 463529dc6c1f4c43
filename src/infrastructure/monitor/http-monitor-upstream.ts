import {
  UpstreamError,
  type DatasourceId,
  type MonitorAnswer,
  type MonitorUpstream,
} from '../../application/monitoring/monitoring.ports.js';
import { scrubSecrets } from '../logging/scrub.js';
import { displayUrl, storeAuth, type StoreVars } from './store-auth.js';

export interface DatasourceConfig {
  url: string | undefined;
  user: string | undefined;
}

export interface MonitorUpstreamOptions {
  apiKey: string | undefined;
  datasources: Record<DatasourceId, DatasourceConfig>;
  /**
   * host[:port] entries allowed as outbound targets besides each store URL's own host, which the
   * admin wrote in the env and is always allowed (MONITOR_URL's host + MONITOR_ALLOWED_HOSTS)
   */
  allowedHosts: string[];
  timeoutMs: number;
  maxBytes?: number;
  concurrency?: number;
}

interface Ready {
  base: URL;
  /** undefined: the store is used without auth */
  auth: string | undefined;
  /** a dashboard tab holds up to ~16 panels: one batch must not queue behind itself */
  limiter: Limiter;
}

/** What the start-up line says of a store. */
export type StoreStatus =
  | { datasource: DatasourceId; configured: true; url: string; how: string }
  | { datasource: DatasourceId; configured: false; why: string };

export const STORE_VARS: Record<DatasourceId, StoreVars> = {
  metrics: { url: 'MONITOR_METRICS_URL', user: 'MONITOR_METRICS_USER' },
  logs: { url: 'MONITOR_LOGS_URL', user: 'MONITOR_LOGS_USER' },
  traces: { url: 'MONITOR_TRACES_URL', user: 'MONITOR_TRACES_USER' },
};

/** A small semaphore: at most `limit` calls in flight per datasource. */
class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}

/**
 * HTTP client of the stores. A store is used when its URL is set: with Basic auth when its user and
 * MONITOR_API_KEY are set, without an Authorization header when it has no user (store-auth.ts). The
 * store URL's own host is the allowed target (with MONITOR_URL's host and MONITOR_ALLOWED_HOSTS);
 * requests go only to that URL plus a fixed API path, follow no redirect, time out, and stop reading
 * past a size limit. Errors never carry the URL or the key.
 */
export class HttpMonitorUpstream implements MonitorUpstream {
  private readonly ready = new Map<DatasourceId, Ready>();
  /** one entry per store, for the start-up log */
  readonly status: StoreStatus[] = [];

  constructor(private readonly opts: MonitorUpstreamOptions) {
    for (const ds of ['metrics', 'logs', 'traces'] as const) {
      const c = opts.datasources[ds];
      const auth = storeAuth(STORE_VARS[ds], c.url, c.user, opts.apiKey);
      if (!auth.use) {
        this.status.push({ datasource: ds, configured: false, why: auth.why });
        continue;
      }
      const base = URL.canParse(auth.url) ? new URL(auth.url) : null;
      if (!base || (base.protocol !== 'https:' && base.protocol !== 'http:')) {
        this.status.push({
          datasource: ds,
          configured: false,
          why: `${STORE_VARS[ds].url} is not an http(s) URL`,
        });
        continue;
      }
      this.ready.set(ds, { base, auth: auth.authorization, limiter: new Limiter(opts.concurrency ?? 16) });
      this.status.push({ datasource: ds, configured: true, url: displayUrl(auth.url), how: auth.how });
    }
  }

  /** The store's own host (configured by the admin), MONITOR_URL's host and MONITOR_ALLOWED_HOSTS. */
  private allowed(u: URL, base: URL): boolean {
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
    if (u.protocol === base.protocol && u.host.toLowerCase() === base.host.toLowerCase()) return true;
    return this.opts.allowedHosts.some(
      (h) => h.toLowerCase() === u.host.toLowerCase() || h.toLowerCase() === u.hostname.toLowerCase(),
    );
  }

  configured(ds: DatasourceId): boolean {
    return this.ready.has(ds);
  }

  async get(
    ds: DatasourceId,
    path: string,
    params: Record<string, string | number | undefined>,
  ): Promise<MonitorAnswer> {
    const r = this.ready.get(ds);
    if (!r) throw new UpstreamError('upstream_error', 'the data source is not configured');
    // the datasource URL may carry a path prefix (e.g. https://host/loki): the fixed path goes after it
    const url = new URL(r.base.toString());
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
    url.search = '';
    for (const [k, v] of Object.entries(params))
      if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    if (!this.allowed(url, r.base))
      throw new UpstreamError('upstream_error', 'the data source host is not allowed');
    return r.limiter.run(() => this.call(url, r.auth));
  }

  private async call(url: URL, auth: string | undefined): Promise<MonitorAnswer> {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { ...(auth ? { authorization: auth } : {}), accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (e) {
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new UpstreamError('upstream_timeout', 'the data source did not answer in time');
      throw new UpstreamError('upstream_error', 'the data source could not be reached', (e as Error).message);
    }
    if (res.status === 429) {
      await res.body?.cancel();
      throw new UpstreamError('rate_limited', 'the data source is rate limiting requests');
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw new UpstreamError(
        'upstream_error',
        `the data source answered a redirect (HTTP ${res.status}), which is not followed`,
      );
    }
    const text = await this.readBounded(res);
    const refusal = res.status === 400 || res.status === 422 ? queryRefusal(text) : null;
    if (refusal) throw new UpstreamError('bad_query', `the store refused the query: ${refusal}`);
    if (!res.ok)
      throw new UpstreamError(
        'upstream_error',
        statusMessage(res.status, auth),
        this.snippet(text, auth),
        res.status,
      );
    try {
      return { body: JSON.parse(text) as unknown, text };
    } catch {
      throw new UpstreamError(
        'upstream_format',
        'the data source answered something that is not JSON',
        this.snippet(text, auth),
      );
    }
  }

  /**
   * The start of an upstream answer for the server-side log, without credentials: an upstream that
   * echoes the request (its headers, our Basic auth) must not put them into the log store.
   */
  private snippet(text: string, auth: string | undefined): string {
    const known = auth
      ? [auth, auth.replace(/^Basic /, ''), this.opts.apiKey ?? '']
      : [this.opts.apiKey ?? ''];
    return scrubSecrets(text.slice(0, 2000), known).slice(0, 500);
  }

  private async readBounded(res: Response): Promise<string> {
    const max = this.opts.maxBytes ?? 10 * 1024 * 1024;
    const reader = res.body?.getReader();
    if (!reader) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > max) {
          await reader.cancel();
          throw new UpstreamError('upstream_error', `the data source answered more than ${max} bytes`);
        }
        chunks.push(value);
      }
    } catch (e) {
      if (e instanceof UpstreamError) throw e;
      const name = (e as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new UpstreamError('upstream_timeout', 'the data source did not answer in time');
      throw new UpstreamError('upstream_error', 'the data source connection failed', (e as Error).message);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/**
 * What an HTTP error of a store most likely means for the admin: wrong credentials, a missing auth,
 * or a store URL without its route prefix. No URL, no credentials.
 */
function statusMessage(status: number, auth: string | undefined): string {
  if (status === 401 || status === 403)
    return auth
      ? `the data source refused the credentials (HTTP ${status}): check the store's user and MONITOR_API_KEY`
      : `the data source asks for credentials (HTTP ${status}): set the store's user and MONITOR_API_KEY`;
  if (status === 404)
    return 'the data source answered HTTP 404: check the route prefix in the store URL (the address a Grafana data source would use)';
  return `the data source answered HTTP ${status}`;
}

const REFUSAL_MAX = 300;
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/**
 * The store's own explanation of a query it refused: Prometheus answers 400/422 with
 * `{status: "error", errorType, error}`; Loki and Tempo answer 400 with the parser's message as text.
 * The text is the store's, so it is bounded and stripped of control characters before it is shown.
 */
export function queryRefusal(body: string): string | null {
  let reason = body;
  try {
    const json = JSON.parse(body) as { errorType?: unknown; error?: unknown; message?: unknown };
    const message = typeof json.error === 'string' ? json.error : json.message;
    if (typeof message !== 'string') return null;
    reason = typeof json.errorType === 'string' ? `${json.errorType}: ${message}` : message;
  } catch {
    // Loki/Tempo: plain text
  }
  const clean = reason.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim();
  if (!clean || /^<(!doctype|html)/i.test(clean)) return null;
  return clean.length > REFUSAL_MAX ? `${clean.slice(0, REFUSAL_MAX)}…` : clean;
}
