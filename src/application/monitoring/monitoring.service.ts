import { AppError, invalid, notConfigured } from '../../domain/errors.js';
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
  | { id: string; status: 'error'; error: { code: string; message: string } };

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

  panels(range: TimeRange, env: Environment) {
    return buildPanels(range, env, this.clock.now());
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
          return { id, status: 'error', error: { code: err.code, message: err.message } };
        }
      }),
    );
    return { results };
  }

  private async fetch(kind: BatchKind, q: MonitorQuery): Promise<Fetched> {
    const route = ROUTES[kind];
    const params = route.params(q);
    // the last good answer of the same question: a dashboard's window slides forward on every
    // tick, so start and end are not part of it
    const key = `${kind}:${JSON.stringify({ ...params, start: undefined, end: undefined })}`;
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
