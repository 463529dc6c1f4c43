import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface Article {
  id: string;
  topic_id: string;
  title: string;
  url: string;
  source: string | null;
  summary: string | null;
  published_at: string | null;
  scraped_at: string;
  language: string | null;
  doi: string | null;
  arxiv_id: string | null;
  tags: string[];
  metrics: Record<string, number>;
  view_count: number;
  is_favorited: boolean;
}

export interface ArticleDetail extends Article {
  content: string | null;
  author: string | null;
  translations: Record<string, { title?: string | null; summary?: string | null }>;
}

export interface ArticlePage {
  items: Article[];
  total: number;
  limit: number;
  offset: number;
}

export interface ArticleListParams {
  topic_id?: string;
  sort: string;
  order: 'asc' | 'desc';
  favorites_only: boolean;
  q?: string;
  tag?: string;
  limit: number;
  offset: number;
}

export const articlesQuery = (params: ArticleListParams) =>
  queryOptions({
    queryKey: ['articles', 'list', params],
    queryFn: ({ signal }) =>
      api<ArticlePage>('/articles', {
        signal,
        query: { ...params, favorites_only: params.favorites_only ? 'true' : undefined },
      }),
    placeholderData: keepPreviousData,
  });

export function useArticles(params: ArticleListParams) {
  return useQuery(articlesQuery(params));
}

export const articleQuery = (id: string) =>
  queryOptions({
    queryKey: ['articles', 'detail', id],
    queryFn: ({ signal }) => api<ArticleDetail>(`/articles/${encodeURIComponent(id)}`, { signal }),
  });

export function useArticle(id: string) {
  return useQuery(articleQuery(id));
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
