import { AppError, invalid, notConfigured, notFound } from '../../domain/errors.js';
import type { Clock, Logger } from '../shared/ports.js';
import {
  UpstreamError,
  type DatasourceId,
  type LastGoodStore,
  type MonitorUpstream,
} from './monitoring.ports.js';
import { buildPanels, type Environment, type TimeRange } from './panel-catalog.js';
import { expectLogs, expectMatrix, expectTraceSearch, normalizeTrace } from './payload-shapes.js';

export type BatchKind = 'metrics' | 'logs' | 'log-metrics' | 'traces';

export interface MonitorQuery {
  id?: string;
  query?: string;
  q?: string;
  start?: string | number;
  end?: string | number;
  step?: string | number;
  limit?: number;
  direction?: string;
  minDuration?: string;
}

export type BatchResult =
  | { id: string; status: 'ok'; data: unknown; stale: boolean; fetched_at: string }
  | {
      id: string;
      status: 'error';
      error: { code: string; message: string };
      /** when the same question last had an answer (an outage shows how old the panel's data is) */
      last_fetched_at?: string;
    };

export interface Fetched {
  data: unknown;
  stale: boolean;
  fetchedAt: Date;
}

const MAX_BATCH = 50;

interface Route {
  ds: DatasourceId;
  path: string;
  params(q: MonitorQuery): Record<string, string | number | undefined>;
  shape(payload: unknown): unknown;
}

const s = (v: string | number | undefined) => (v === undefined ? undefined : String(v));

const DEFAULT_WINDOW_SECONDS = 3600;
/** points per series when a range query names no step (a chart is a few hundred pixels wide) */
const DEFAULT_POINTS = 250;

/** A time given as unix seconds, milliseconds, microseconds or nanoseconds, or RFC 3339, in seconds. */
export function toUnixSeconds(v: string | number | undefined): number | null {
  if (v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
  if (Number.isFinite(n)) return n > 1e17 ? n / 1e9 : n > 1e14 ? n / 1e6 : n > 1e11 ? n / 1e3 : n;
  const ms = Date.parse(String(v));
  return Number.isFinite(ms) ? ms / 1000 : null;
}

/**
 * A range query without `end`, `start` or `step` gets them: now, an hour before `end`, and a step that
 * gives about 250 points, so a batch that names only its query still answers (Prometheus and Loki
 * refuse a range query without them); with a picked step, the points end at `end`. Traces take unix
 * seconds, the other stores RFC 3339.
 */
export function withRangeDefaults(kind: BatchKind, q: MonitorQuery, now: Date): MonitorQuery {
  const end = toUnixSeconds(q.end) ?? now.getTime() / 1000;
  const start = toUnixSeconds(q.start) ?? end - DEFAULT_WINDOW_SECONDS;
  const time = (t: number) =>
    kind === 'traces' ? Math.floor(t) : new Date(Math.round(t * 1000)).toISOString();
  const out: MonitorQuery = {
    ...q,
    start: toUnixSeconds(q.start) === null ? time(start) : q.start,
    end: toUnixSeconds(q.end) === null ? time(end) : q.end,
  };
  const ranged = kind === 'metrics' || kind === 'log-metrics';
  if (ranged && (q.step === undefined || q.step === '') && end > start) {
    const step = Math.max(1, Math.ceil((end - start) / DEFAULT_POINTS));
    out.step = step;
    // the store evaluates at start, start + step, …: start moves back (by less than a step) so that
    // the last point is `end` itself and the newest data is on the chart, not up to a step behind
    const aligned = end - Math.ceil((end - start) / step) * step;
    if (aligned !== start) out.start = time(aligned);
  }
  return out;
}

/** Fixed upstream paths per kind: client values only ever become encoded query parameters. */
const ROUTES: Record<BatchKind, Route> = {
  metrics: {
    ds: 'metrics',
    path: '/api/v1/query_range',
    params: (q) => ({ query: q.query, start: s(q.start), end: s(q.end), step: s(q.step) }),
    shape: expectMatrix,
  },
  logs: {
    ds: 'logs',
    path: '/loki/api/v1/query_range',
    params: (q) => ({
      query: q.query,
      start: s(q.start),
      end: s(q.end),
      limit: q.limit ?? 100,
      direction: q.direction ?? 'backward',
      step: s(q.step),
    }),
    shape: expectLogs,
  },
  'log-metrics': {
    ds: 'logs',
    path: '/loki/api/v1/query_range',
    params: (q) => ({ query: q.query, start: s(q.start), end: s(q.end), step: s(q.step) }),
    shape: expectMatrix,
  },
  traces: {
    ds: 'traces',
    path: '/api/search',
    params: (q) => ({
      q: q.q ?? q.query,
      start: s(q.start),
      end: s(q.end),
      limit: q.limit ?? 20,
      minDuration: q.minDuration,
    }),
    shape: expectTraceSearch,
  },
};

const HTTP_STATUS: Record<UpstreamError['code'], number> = {
  rate_limited: 429,
  upstream_error: 502,
  upstream_timeout: 504,
  upstream_format: 502,
  bad_query: 422,
};

/**
 * The monitoring proxy: the dashboard's only way to the metrics, log and trace stores. Credentials
 * stay in the upstream adapter; this keeps a last-good copy per query so a rate-limited store
 * still answers (marked stale), and runs batch queries concurrently, each failing on its own.
 */
export class MonitoringService {
  constructor(
    private readonly upstream: MonitorUpstream,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly lastGood: LastGoodStore,
  ) {}

  /** The panel catalog, with which stores are configured (the page shows their state before any query). */
  panels(range: TimeRange, env: Environment) {
    const stores: Record<DatasourceId, boolean> = {
      logs: this.upstream.configured('logs'),
      traces: this.upstream.configured('traces'),
      metrics: this.upstream.configured('metrics'),
    };
    return { ...buildPanels(range, env, this.clock.now()), stores };
  }

  /** One query for a single GET: upstream errors become typed HTTP errors. */
  async single(kind: BatchKind, q: MonitorQuery): Promise<Fetched> {
    this.ensureConfigured(ROUTES[kind].ds);
    try {
      return await this.fetch(kind, q);
    } catch (e) {
      throw this.asHttpError(e);
    }
  }

  async trace(id: string): Promise<{ batches: unknown[] }> {
    if (!/^[0-9a-fA-F]{1,32}$/.test(id))
      throw invalid('a trace id is 1 to 32 hexadecimal characters', 'invalid_trace_id');
    this.ensureConfigured('traces');
    try {
      return normalizeTrace((await this.upstream.get('traces', `/api/traces/${id.toLowerCase()}`, {})).body);
    } catch (e) {
      // the trace store answers 404 for an id it does not hold (expired, or not ingested yet)
      if (e instanceof UpstreamError && e.status === 404) throw notFound('trace', 'trace_not_found');
      throw this.asHttpError(this.logged('traces', e));
    }
  }

  async batch(kind: BatchKind, queries: MonitorQuery[]): Promise<{ results: BatchResult[] }> {
    if (queries.length > MAX_BATCH)
      throw invalid(`a batch holds at most ${MAX_BATCH} queries`, 'batch_too_large');
    this.ensureConfigured(ROUTES[kind].ds);
    const results = await Promise.all(
      queries.map(async (q, i): Promise<BatchResult> => {
        const id = q.id ?? String(i);
        try {
          const f = await this.fetch(kind, q);
          return { id, status: 'ok', data: f.data, stale: f.stale, fetched_at: f.fetchedAt.toISOString() };
        } catch (e) {
          const err =
            e instanceof UpstreamError
              ? e
              : new UpstreamError('upstream_error', 'the data source could not be queried');
          const good = this.lastGood.get(this.keyOf(kind, ROUTES[kind].params(q)));
          return {
            id,
            status: 'error',
            error: { code: err.code, message: err.message },
            ...(good ? { last_fetched_at: good.fetchedAt.toISOString() } : {}),
          };
        }
      }),
    );
    return { results };
  }

  private async fetch(kind: BatchKind, q: MonitorQuery): Promise<Fetched> {
    const route = ROUTES[kind];
    const params = route.params(withRangeDefaults(kind, q, this.clock.now()));
    const key = this.keyOf(kind, route.params(q));
    try {
      const answer = await this.upstream.get(route.ds, route.path, params);
      const data = route.shape(answer.body);
      const fetchedAt = this.clock.now();
      this.lastGood.set(key, { text: answer.text, fetchedAt });
      return { data, stale: false, fetchedAt };
    } catch (e) {
      const err = this.logged(route.ds, e);
      const good = err.code === 'rate_limited' ? this.lastGood.get(key) : undefined;
      if (good) return { data: route.shape(JSON.parse(good.text)), stale: true, fetchedAt: good.fetchedAt };
      throw err;
    }
  }

  /**
   * The last good answer of the same question: a dashboard's window slides forward on every tick,
   * so start and end are not part of it.
   */
  private keyOf(kind: BatchKind, params: Record<string, string | number | undefined>): string {
    return `${kind}:${JSON.stringify({ ...params, start: undefined, end: undefined })}`;
  }

  private logged(ds: DatasourceId, e: unknown): UpstreamError {
    const err =
      e instanceof UpstreamError
        ? e
        : new UpstreamError('upstream_error', 'the data source could not be queried', String(e));
    const fields = { event: 'monitor.upstream_failed', datasource: ds, code: err.code, detail: err.detail };
    if (err.code === 'upstream_format' || err.code === 'upstream_error') this.log.error(fields, err.message);
    else this.log.warn(fields, err.message);
    return err;
  }

  private ensureConfigured(ds: DatasourceId) {
    if (!this.upstream.configured(ds)) throw notConfigured(`the ${ds} store is not configured`);
  }

  private asHttpError(e: unknown): AppError {
    if (e instanceof AppError) return e;
    const err =
      e instanceof UpstreamError
        ? e
        : new UpstreamError('upstream_error', 'the data source could not be queried');
    return new AppError(
      err.code === 'rate_limited' ? 'RateLimited' : 'Upstream',
      err.code,
      err.message,
      undefined,
      {
        status: HTTP_STATUS[err.code],
      },
    );
  }
}
