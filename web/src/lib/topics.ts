import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export interface Topic {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  is_active: boolean;
}

/** Topics are shared by every area (articles, reports, settings, tags), so they live in lib. */
export const topicsQuery = queryOptions({
  queryKey: ['topics'],
  queryFn: () => api<Topic[]>('/topics'),
  staleTime: 60_000,
});

export function useTopics() {
  return useQuery(topicsQuery);
}
