import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ScraperRun {
  id: string;
  status: 'running' | 'completed' | 'failed';
  started_at: string;
  finished_at: string | null;
  counts: Record<string, number>;
}

export function useStartScrape() {
  return useMutation({
    mutationFn: () => api<{ run_id: string }>('/admin/scraper/runs', { method: 'POST', body: {} }),
  });
}

/** Polls a run once a second until it is no longer running. */
export function useScraperRun(runId: string | undefined) {
  return useQuery({
    queryKey: ['admin', 'scraper-run', runId],
    enabled: !!runId,
    queryFn: () => api<ScraperRun>(`/admin/scraper/runs/${encodeURIComponent(runId!)}`),
    refetchInterval: (q) => (q.state.data?.status === 'running' || !q.state.data ? 1000 : false),
  });
}

/** What one metric refresh did (POST /admin/jobs/refresh-metrics). */
export interface RefreshSummary {
  articles: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** values written per source; `none`: every source answered without a value */
  by_source: Record<string, number>;
}

export function useRefreshMetrics() {
  return useMutation({
    mutationFn: () => api<RefreshSummary>('/admin/jobs/refresh-metrics', { method: 'POST', body: {} }),
  });
}

export function useWeeklyReports() {
  return useMutation({
    mutationFn: (body: { topic_id?: string; week_start?: string }) =>
      api<unknown>('/admin/jobs/weekly-reports', { method: 'POST', body }),
  });
}
