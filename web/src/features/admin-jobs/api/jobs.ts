import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';

export type RunKind = 'scrape' | 'metrics' | 'reports';
export type RunStatus =
  'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed' | 'interrupted';

/** GET /admin/runs items */
export interface RunSummary {
  id: string;
  kind: RunKind;
  status: RunStatus;
  /** who or what started it (`source_added`: a new source's first read) */
  trigger: ApiResponse<'/admin/runs/{id}'>['trigger'];
  started_at: string;
  finished_at: string | null;
  progress: { done: number; total: number };
  summary: Record<string, string | number | null>;
  error: string | null;
  error_count: number;
}

export interface RunItemError {
  source_id?: string;
  article_id?: string;
  /** the failed article by name (absent when it was deleted since) */
  article_title?: string;
  topic_id?: string;
  message: string;
}

/** GET /admin/runs/{id} */
export interface Run extends RunSummary {
  errors: RunItemError[];
  /** the run's model calls and tokens, per purpose (absent from a server without usage counting) */
  llm?: RunLlmUsage;
}

export type RunLlmUsage = ApiResponse<'/admin/runs/{id}'>['llm'];

export interface RunPage {
  items: RunSummary[];
  total: number;
  limit: number;
  offset: number;
}

export const isActive = (s: RunStatus) => s === 'queued' || s === 'running';
export const HISTORY_PAGE = 10;
const POLL_MS = 1000;

/** The runs under way, polled while any is (a run started elsewhere shows up within a few seconds). */
export function useActiveRuns() {
  return useQuery({
    queryKey: ['admin', 'runs', 'active'],
    queryFn: async () => {
      const [running, queued] = await Promise.all([
        api<RunPage>('/admin/runs', { query: { status: 'running', limit: 10 } }),
        api<RunPage>('/admin/runs', { query: { status: 'queued', limit: 10 } }),
      ]);
      return [...running.items, ...queued.items];
    },
    refetchInterval: (q) => (q.state.data?.length ? POLL_MS : 5000),
  });
}

export function useRunHistory(kind: RunKind | '', offset: number) {
  return useQuery({
    queryKey: ['admin', 'runs', 'history', kind, offset],
    queryFn: () =>
      api<RunPage>('/admin/runs', {
        query: { limit: HISTORY_PAGE, offset, ...(kind ? { kind } : {}) },
      }),
    placeholderData: keepPreviousData,
    // rows of runs under way move on their own
    refetchInterval: (q) => (q.state.data?.items.some((r) => isActive(r.status)) ? POLL_MS * 2 : false),
  });
}

export function useRun(id: string | null) {
  return useQuery({
    queryKey: ['admin', 'run', id],
    enabled: !!id,
    queryFn: () => api<Run>(`/admin/runs/${encodeURIComponent(id!)}`),
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.status) ? POLL_MS : false),
  });
}

/** Starts a job; the answer is its run id (202). */
export function useStartJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (job: { kind: RunKind; topicId?: string }) => {
      const url =
        job.kind === 'scrape'
          ? '/admin/scraper/runs'
          : job.kind === 'metrics'
            ? '/admin/jobs/refresh-metrics'
            : '/admin/jobs/weekly-reports';
      const body = job.kind === 'reports' && job.topicId ? { topic_id: job.topicId } : {};
      return api<{ run_id: string }>(url, { method: 'POST', body });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'runs'] }),
  });
}

export interface NamedItem {
  id: string;
  name: string;
}

/** source names for the errors of a run (the catalog's list) */
export function useSourceNames(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'sources', 'names'],
    enabled,
    queryFn: async () => new Map((await api<NamedItem[]>('/admin/sources')).map((s) => [s.id, s.name])),
    staleTime: 60_000,
  });
}
