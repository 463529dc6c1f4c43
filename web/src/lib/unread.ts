import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import type { UnreadCounts } from './api-types';

/** Shared by the navigation (counts per topic) and the reader pages (which invalidate it). */
export const unreadCountsKey = ['unread-counts'] as const;

/** The signed-in reader's unread articles per topic; nothing for guests or when the api lacks it. */
export function useUnreadCounts(signedIn: boolean) {
  return useQuery({
    queryKey: unreadCountsKey,
    enabled: signedIn,
    queryFn: ({ signal }) => api<UnreadCounts>('/me/unread-counts', { signal, onUnauthorized: 'return' }),
    staleTime: 30_000,
    retry: false,
  });
}
