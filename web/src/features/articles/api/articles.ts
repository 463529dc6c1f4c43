import { useQueryClient, keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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
        // a signed-in reader's open marks it read: the unread counts change with it
        void qc.invalidateQueries({ queryKey: unreadCountsKey });
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
export function recordView(id: string): void {
  if (viewed.has(id)) return;
  viewed.add(id);
  void api<void>(`/articles/${encodeURIComponent(id)}/view`, { method: 'POST' }).catch(() =>
    viewed.delete(id),
  );
}
