import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Work, WorkVersion } from '../../../lib/api-types';

export type { Work, WorkVersion };

/** A work with its versions and coverage (GET /works/{id}), fetched when its card opens it. */
export function useWork(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['works', id],
    queryFn: ({ signal }) => api<Work>(`/works/${encodeURIComponent(id)}`, { signal }),
    enabled,
  });
}
