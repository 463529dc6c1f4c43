import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';

export type TagGroup = ApiResponse<'/tag-groups'>[number];
export type Tag = TagGroup['tags'][number];
export type SimilarGroup = NonNullable<TagGroup['similar_groups']>[number];
export type Suggestion = ApiResponse<'/tag-normalization-suggestions'>[number];

const groupsKey = (topicId: string | undefined, similar: boolean) => [
  'admin',
  'tag-groups',
  topicId,
  similar,
];

export function useTagGroups(topicId: string | undefined, includeSimilar: boolean) {
  return useQuery({
    queryKey: groupsKey(topicId, includeSimilar),
    enabled: !!topicId,
    queryFn: () =>
      api<TagGroup[]>('/tag-groups', {
        query: { topic_id: topicId, include_similar: includeSimilar ? 'true' : undefined },
      }),
  });
}

export function useSuggestions(topicId: string | undefined) {
  return useQuery({
    queryKey: ['admin', 'tag-suggestions', topicId],
    enabled: !!topicId,
    queryFn: () => api<Suggestion[]>('/tag-normalization-suggestions', { query: { topic_id: topicId } }),
  });
}

/** Every tag write refreshes the board and the pending suggestions (both may change). */
export function useTagWrites() {
  const qc = useQueryClient();
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: ['admin', 'tag-groups'] });
    await qc.invalidateQueries({ queryKey: ['admin', 'tag-suggestions'] });
  };
  const m = <A>(fn: (a: A) => Promise<unknown>) => useMutation({ mutationFn: fn, onSuccess: refresh });
  return {
    createGroup: m(
      (body: {
        name: string;
        display_name: string;
        description?: string;
        color_hex?: string;
        topic_id: string;
      }) => api('/tag-groups', { method: 'POST', body }),
    ),
    updateGroup: m(
      ({
        id,
        ...body
      }: {
        id: string;
        name?: string;
        display_name?: string;
        description?: string;
        color_hex?: string;
      }) => api(`/tag-groups/${id}`, { method: 'PUT', body }),
    ),
    deleteGroup: m((id: string) => api(`/tag-groups/${id}`, { method: 'DELETE' })),
    merge: m(
      (body: {
        source_group_id: string;
        target_group_id?: string;
        result_name?: string;
        result_display_name?: string;
        result_color?: string;
      }) => api('/tag-groups/merge', { method: 'POST', body }),
    ),
    reorder: m((groups: { id: string; sort_order: number }[]) =>
      api('/tag-groups/reorder', { method: 'POST', body: { groups } }),
    ),
    moveTag: m(({ id, tag_group_id }: { id: string; tag_group_id: string | null }) =>
      api(`/tags/${id}`, { method: 'PUT', body: { tag_group_id } }),
    ),
    renameTag: m(({ id, name }: { id: string; name: string }) =>
      api(`/tags/${id}`, { method: 'PUT', body: { name } }),
    ),
    deleteTag: m((id: string) => api(`/tags/${id}`, { method: 'DELETE' })),
    batchMove: m((body: { tag_ids: string[]; tag_group_id: string | null }) =>
      api('/tags/batch-move', { method: 'POST', body }),
    ),
    resolve: m(
      ({ id, action, resolved_by }: { id: string; action: 'approve' | 'reject'; resolved_by: string }) =>
        api(`/tag-normalization-suggestions/${id}/${action}`, { method: 'POST', body: { resolved_by } }),
    ),
  };
}
export type TagWrites = ReturnType<typeof useTagWrites>;
