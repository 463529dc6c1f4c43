import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ArticleDetail, MarkReadFilter, MarkReadResult } from '../../../lib/api-types';
import { unreadCountsKey } from '../../../lib/unread';
import { articleKey } from './articles';

/**
 * Lists and unread counts are refetched after a change; the open article's own query is patched in
 * place, not refetched, because its GET marks it read again (an "unread" toggle would not stick).
 */
function afterReadChange(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: ['articles', 'list'] });
  void qc.invalidateQueries({ queryKey: ['articles', 'similar'] });
  void qc.invalidateQueries({ queryKey: unreadCountsKey });
}

export function useSetRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: string; read: boolean }) =>
      api<void>(`/articles/${encodeURIComponent(id)}/read`, { method: read ? 'PUT' : 'DELETE' }),
    onSuccess: (_void, { id, read }) => {
      qc.setQueryData<ArticleDetail>(articleKey(id), (a) => (a ? { ...a, is_read: read } : a));
      afterReadChange(qc);
    },
  });
}

/** How many unread articles "mark all as read" would mark now (the api's dry run). */
export function useCountUnread() {
  return useMutation({
    mutationFn: (filter: MarkReadFilter) =>
      api<MarkReadResult>('/articles/read', { method: 'POST', body: { ...filter, dry_run: true } }),
  });
}

/** Marks every article matching the list's filters read (the api answers how many, and an undo token). */
export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (filter: MarkReadFilter) =>
      api<MarkReadResult>('/articles/read', { method: 'POST', body: filter }),
    onSuccess: () => afterReadChange(qc),
  });
}

/** Takes one "mark all as read" back: exactly its articles are unread again. */
export function useUndoMarkAll() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      api<{ unmarked: number }>('/articles/read/undo', { method: 'POST', body: { undo_token: token } }),
    onSuccess: () => {
      afterReadChange(qc);
      void qc.invalidateQueries({ queryKey: ['articles', 'detail'] });
    },
  });
}
