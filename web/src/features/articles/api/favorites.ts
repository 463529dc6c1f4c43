import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ArticleDetail } from '../../../lib/api-types';
import { articleKey } from './articles';

export function useToggleFavorite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, favorite }: { id: string; favorite: boolean }) =>
      api<void>(`/user/favorites/${encodeURIComponent(id)}`, { method: favorite ? 'POST' : 'DELETE' }),
    onSuccess: (_void, { id, favorite }) => {
      // patched, not refetched: a refetch of the open article would mark it read again
      qc.setQueryData<ArticleDetail>(articleKey(id), (a) => (a ? { ...a, is_favorited: favorite } : a));
      void qc.invalidateQueries({ queryKey: ['articles', 'list'] });
      void qc.invalidateQueries({ queryKey: ['articles', 'similar'] });
    },
  });
}
