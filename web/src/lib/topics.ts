import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import type { Topic } from './api-types';

export type { Topic };

/** Topics are shared by every area (articles, reports, settings, tags), so they live in lib. */
export const topicsQuery = queryOptions({
  queryKey: ['topics'],
  queryFn: () => api<Topic[]>('/topics'),
  staleTime: 60_000,
});

export function useTopics() {
  return useQuery(topicsQuery);
}
