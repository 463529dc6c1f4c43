import { ApiError, api, buildQuery } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';
import type {
  BatchResult,
  Datasource,
  Environment,
  PanelCatalog,
  PanelDef,
  PanelQuery,
  TimeRange,
  TraceDetail,
} from '../model/types';

export const getPanels = (range: TimeRange, env: Environment, signal?: AbortSignal) =>
  api<PanelCatalog>('/monitor/panels', { query: { range, env }, signal });

/** One batch request per datasource type: `POST /monitor/<datasource>/batch`. */
export const postBatch = (datasource: Datasource, queries: PanelQuery[], signal?: AbortSignal) =>
  api<{ results: BatchResult[] }>(`/monitor/${datasource}/batch`, {
    method: 'POST',
    body: { queries },
    signal,
  });

export const getTrace = (traceId: string, signal?: AbortSignal) =>
  api<TraceDetail>(`/monitor/traces/${encodeURIComponent(traceId)}`, { signal });

/**
 * A panel's own refresh: exactly one GET. Log panels (also aggregates, which the log store answers
 * as a matrix) use /monitor/logs, trace panels /monitor/traces, metrics panels /monitor/metrics.
 * The staleness headers are read too.
 */
export async function getPanelData(
  panel: PanelDef,
  signal?: AbortSignal,
): Promise<{ data: unknown; stale: boolean; fetchedAt: number }> {
  const q = panel.query;
  const path =
    panel.datasource === 'traces'
      ? '/monitor/traces'
      : panel.datasource === 'metrics'
        ? '/monitor/metrics'
        : '/monitor/logs';
  const query =
    panel.datasource === 'traces'
      ? { q: q.q ?? q.query, start: q.start, end: q.end, limit: q.limit, minDuration: q.minDuration }
      : panel.datasource === 'metrics'
        ? { query: q.query, start: q.start, end: q.end, step: q.step }
        : {
            query: q.query,
            start: q.start,
            end: q.end,
            limit: q.limit,
            direction: q.direction,
            step: q.step,
          };
  const res = await fetch(`/api/proxy${path}${buildQuery(query)}`, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
    signal,
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!res.ok) {
    const e = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(res.status, e?.code ?? 'http_error', e?.message ?? `HTTP ${res.status}`);
  }
  const fetchedAt = Date.parse(res.headers.get('x-monitor-fetched-at') ?? '') || Date.now();
  return { data: body, stale: res.headers.get('x-monitor-stale') === 'true', fetchedAt };
}

export interface ServiceStats {
  days: number;
  since: string;
  generated_at: string;
  runs_per_day: {
    day: string;
    completed: number;
    completed_with_errors: number;
    failed: number;
    interrupted: number;
    running: number;
  }[];
  failures_per_stage: { stage: string; count: number }[];
  articles_per_source: { source: string; count: number }[];
  citation_coverage: { articles: number; with_citation: number; share: number | null };
  last_run_per_source: {
    source_id: string;
    name: string;
    topic: string;
    enabled: boolean;
    last_fetched_at: string | null;
    last_error: string | null;
    last_article_at: string | null;
  }[];
  /** model calls and tokens per UTC day and purpose, oldest first; days without calls are absent */
  llm_usage_per_day: LlmUsageOfDay[];
}

export type LlmUsageOfDay = ApiResponse<'/admin/service-stats'>['llm_usage_per_day'][number];

/** The Service tab: `GET /admin/service-stats?days=N`, from the service's own database. */
export const getServiceStats = (days: number, signal?: AbortSignal) =>
  api<ServiceStats>('/admin/service-stats', { query: { days }, signal });
