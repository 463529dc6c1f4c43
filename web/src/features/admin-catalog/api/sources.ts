import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';

export type SourceRow = ApiResponse<'/admin/sources'>[number];
export type SourceFetch = ApiResponse<'/admin/sources/{id}/fetches'>[number];
export type SourcePreview = ApiResponse<'/admin/sources/preview', 'post'>;

/** the same key as the catalog's list of sources (useAdminList('sources')) */
const SOURCES = ['admin', 'sources'] as const;
const historyKey = (id: string) => ['admin', 'sources', id, 'fetches'] as const;
const POLL_MS = 1000;

export function useSources() {
  return useQuery({ queryKey: SOURCES, queryFn: () => api<SourceRow[]>('/admin/sources') });
}

/** POST /admin/sources/preview: what the URL is (feed, page with feeds, or why not). */
export function usePreview() {
  return useMutation({
    mutationFn: (url: string) =>
      api<SourcePreview>('/admin/sources/preview', { method: 'POST', body: { url } }),
  });
}

/** Create, edit and delete; every change refreshes the list (and the source's history). */
export function useSourceWrites() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: SOURCES });
  return {
    create: useMutation({
      mutationFn: (body: Record<string, unknown>) =>
        api<SourceRow>('/admin/sources', { method: 'POST', body }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, ...body }: { id: string } & Record<string, unknown>) =>
        api<SourceRow>(`/admin/sources/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api<void>(`/admin/sources/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: done,
    }),
  };
}

/** GET /admin/sources/{id}/fetches: the last 20 fetch results, loaded when the detail opens. */
export function useFetchHistory(id: string, open: boolean) {
  return useQuery({
    queryKey: historyKey(id),
    queryFn: () => api<SourceFetch[]>(`/admin/sources/${encodeURIComponent(id)}/fetches`),
    enabled: open,
  });
}

interface RunState {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed' | 'interrupted';
  error: string | null;
}

/**
 * "Fetch now": POST /admin/sources/{id}/fetch answers a run id; the run is polled until it ends,
 * then the row and its history are read again.
 */
export function useFetchNow(id: string) {
  const qc = useQueryClient();
  const start = useMutation({
    mutationFn: () =>
      api<{ run_id: string }>(`/admin/sources/${encodeURIComponent(id)}/fetch`, { method: 'POST' }),
  });
  const runId = start.data?.run_id;
  const run = useQuery({
    queryKey: ['admin', 'runs', runId],
    queryFn: async () => {
      const r = await api<RunState>(`/admin/runs/${encodeURIComponent(runId!)}`);
      if (r.status !== 'queued' && r.status !== 'running') {
        await qc.invalidateQueries({ queryKey: SOURCES });
        await qc.invalidateQueries({ queryKey: historyKey(id) });
      }
      return r;
    },
    enabled: Boolean(runId),
    refetchInterval: (q) =>
      q.state.data && q.state.data.status !== 'queued' && q.state.data.status !== 'running' ? false : POLL_MS,
  });
  const running =
    start.isPending || (Boolean(runId) && (!run.data || ['queued', 'running'].includes(run.data.status)));
  return { start, run: run.data, running };
}
