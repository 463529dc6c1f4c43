import {
  useQueryClient,
  keepPreviousData,
  queryOptions,
  useQuery,
  type QueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { unreadCountsKey } from '../../../lib/unread';
import type {
  Article,
  ArticleDetail,
  ArticleListQuery,
  ArticlePage,
  SimilarArticles,
} from '../../../lib/api-types';

export type { Article, ArticleDetail, ArticlePage };

/** Only what differs from the api's defaults goes out, so the request matches the URL's state. */
function wireQuery(params: ArticleListQuery) {
  return {
    ...params,
    favorites_only: params.favorites_only ? 'true' : undefined,
    unread_only: params.unread_only ? 'true' : undefined,
  };
}

export const articlesQuery = (params: ArticleListQuery) =>
  queryOptions({
    queryKey: ['articles', 'list', params],
    queryFn: ({ signal }) => api<ArticlePage>('/articles', { signal, query: wireQuery(params) }),
    placeholderData: keepPreviousData,
  });

export function useArticles(params: ArticleListQuery, enabled = true) {
  return useQuery({ ...articlesQuery(params), enabled });
}

export const articleKey = (id: string) => ['articles', 'detail', id] as const;

/** For a signed-in reader the api marks the article read on this GET (idempotent). */
export function useArticle(id: string) {
  const qc = useQueryClient();
  return useQuery(
    queryOptions({
      queryKey: articleKey(id),
      queryFn: async ({ signal }) => {
        const article = await api<ArticleDetail>(`/articles/${encodeURIComponent(id)}`, { signal });
        // a signed-in reader's open marks it read: the lists and unread counts change with it
        if (article.is_read) markOpenedRead(qc, id);
        return article;
      },
      // a refetch would mark it read again behind an "unread" toggle
      refetchOnWindowFocus: false,
    }),
  );
}

export function useSimilarArticles(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['articles', 'similar', id],
    enabled,
    retry: false,
    queryFn: ({ signal }) => api<SimilarArticles>(`/articles/${encodeURIComponent(id)}/similar`, { signal }),
  });
}

/** Counted once per article and page load; the backend also de-duplicates per address for 24 h. */
const viewed = new Set<string>();
export function recordView(id: string, onCounted?: () => void): void {
  if (viewed.has(id)) return;
  viewed.add(id);
  void api<void>(`/articles/${encodeURIComponent(id)}/view`, { method: 'POST' }).then(onCounted, () =>
    viewed.delete(id),
  );
}

/**
 * After a counted view the lists are read again, and the open article takes only its new view count:
 * a refetch replacing the whole article would race the reader's own toggles (a favorite removed while
 * the older answer was on its way came back as favorited).
 */
export function refreshViewCount(qc: QueryClient, id: string): void {
  void qc.invalidateQueries({
    queryKey: ['articles'],
    refetchType: 'active',
    predicate: (q) => q.queryKey[1] !== 'detail',
  });
  void api<ArticleDetail>(`/articles/${encodeURIComponent(id)}`).then(
    (fresh) =>
      qc.setQueryData<ArticleDetail>(articleKey(id), (a) => (a ? { ...a, view_count: fresh.view_count } : a)),
    () => undefined, // the count shown stays until the next open
  );
}

/**
 * Opening an article marks it read on the server (its GET): the cached lists say so at once, and
 * are refetched when the reader comes back, so an unread-only list drops it.
 */
export function markOpenedRead(qc: QueryClient, id: string) {
  qc.setQueriesData<ArticlePage>({ queryKey: ['articles', 'list'] }, (page) =>
    page && page.items.some((a) => a.id === id && a.is_read !== true)
      ? { ...page, items: page.items.map((a) => (a.id === id ? { ...a, is_read: true } : a)) }
      : page,
  );
  void qc.invalidateQueries({ queryKey: ['articles', 'list'], refetchType: 'none' });
  void qc.invalidateQueries({ queryKey: unreadCountsKey });
}
