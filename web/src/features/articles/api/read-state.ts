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

/** Marks every article matching the list's filters read (the api answers how many). */
export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (filter: MarkReadFilter) =>
      api<MarkReadResult>('/articles/read', { method: 'POST', body: filter }),
    onSuccess: () => afterReadChange(qc),
  });
}
