import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiBody, ApiResponse, Article, Work } from '../../../lib/api-types';

export type { Article, Work };
type SplitAnswer = ApiResponse<'/admin/works/{id}/split', 'post'>;
type MergeAnswer = ApiResponse<'/admin/works/merge', 'post'>;
type MergeBody = ApiBody<'/admin/works/merge'>;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * What the admin typed: an id (a work's or an article's, alone or inside an address of this app,
 * e.g. `/articles/<id>` or `/admin/works?work=<id>`), else words to search article titles with.
 */
export function parseFind(input: string): { id: string } | { q: string } | null {
  const text = input.trim();
  if (!text) return null;
  const id = UUID.exec(text)?.[0];
  return id ? { id: id.toLowerCase() } : { q: text };
}

/** GET /works/{id}: a work's id, or one of its articles' ids, finds it. */
export function useWork(id: string | null) {
  return useQuery({
    queryKey: ['works', id],
    queryFn: ({ signal }) => api<Work>(`/works/${encodeURIComponent(id!)}`, { signal }),
    enabled: !!id,
    retry: false,
  });
}

/**
 * Articles matching `q` (GET /articles, every version, not collapsed), one row per work (the
 * first-ranked article stands for its work).
 */
export function useArticleSearch(q: string | null) {
  return useQuery({
    queryKey: ['admin', 'works', 'search', q],
    queryFn: async ({ signal }) => {
      const page = await api<{ items: Article[] }>('/articles', { query: { q: q!, limit: 20 }, signal });
      const seen = new Set<string>();
      return page.items.filter((a) => !seen.has(a.work.id) && !!seen.add(a.work.id));
    },
    enabled: !!q,
  });
}

/**
 * Every cached work and list is stale after a split or a merge (ids and counts changed); the
 * answer does not wait for the refetch.
 */
function useInvalidate() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: ['works'] });
    void qc.invalidateQueries({ queryKey: ['admin', 'works'] });
    void qc.invalidateQueries({ queryKey: ['articles', 'list'] });
  };
}

/** Reads a work again (after a refused change: it changed meanwhile). */
export function useRefreshWork() {
  const qc = useQueryClient();
  return (id: string) => void qc.invalidateQueries({ queryKey: ['works', id] });
}

/** POST /admin/works/{id}/split: `work_ids` is the work that stayed, then the new one. */
export function useSplitWork() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ workId, articleIds }: { workId: string; articleIds: string[] }) =>
      api<SplitAnswer>(`/admin/works/${encodeURIComponent(workId)}/split`, {
        method: 'POST',
        body: { article_ids: articleIds },
      }),
    onSuccess: () => invalidate(),
  });
}

/** POST /admin/works/merge: the works join the first one; `work_id` is the merged work. */
export function useMergeWorks() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (workIds: MergeBody['work_ids']) =>
      api<MergeAnswer>('/admin/works/merge', { method: 'POST', body: { work_ids: workIds } }),
    onSuccess: () => invalidate(),
  });
}
