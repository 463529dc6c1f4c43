import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiBody, ApiQuery, ApiResponse } from '../../../lib/api-types';

export type TagGroup = ApiResponse<'/tag-groups'>[number];
export type Tag = TagGroup['tags'][number];
export type SimilarGroup = NonNullable<TagGroup['similar_groups']>[number];
export type TagPage = ApiResponse<'/admin/tags'>;
export type TagRow = TagPage['items'][number];
export type TagTableQuery = ApiQuery<'/admin/tags'>;
export type TagSort = NonNullable<TagTableQuery['sort']>;
export type MergeBody = ApiBody<'/admin/tags/merge'>;
export type MergeResult = ApiResponse<'/admin/tags/merge', 'post'>;
export type MoveBody = ApiBody<'/admin/tags/move'>;
export type MoveResult = ApiResponse<'/admin/tags/move', 'post'>;
export type SuggestionPage = ApiResponse<'/admin/tags/suggestions'>;
export type SuggestionDetail = SuggestionPage['items'][number];

/** One page of the tags table; the previous page stays on screen while the next one loads. */
export function useTagTable(query: TagTableQuery) {
  return useQuery({
    queryKey: ['admin', 'tags', query],
    enabled: !!query.topic_id,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api<TagPage>('/admin/tags', { query: { ...query }, signal }),
  });
}

/** The topic's groups without their tags (a topic may hold thousands), with tag counts. */
export function useGroupList(topicId: string | undefined, includeSimilar = false) {
  return useQuery({
    queryKey: ['admin', 'tag-groups', topicId, 'list', includeSimilar],
    enabled: !!topicId,
    queryFn: () =>
      api<TagGroup[]>('/tag-groups', {
        query: {
          topic_id: topicId,
          include_tags: 'false',
          include_similar: includeSimilar ? 'true' : undefined,
        },
      }),
  });
}

/** One group with its tags (the group merge preview). */
export function useGroupDetail(id: string | undefined) {
  return useQuery({
    queryKey: ['admin', 'tag-groups', 'one', id],
    enabled: !!id,
    queryFn: () => api<TagGroup>(`/tag-groups/${id}`),
  });
}

export function useSuggestionPage(topicId: string | undefined, offset: number) {
  return useQuery({
    queryKey: ['admin', 'tag-suggestions', topicId, offset],
    enabled: !!topicId,
    placeholderData: keepPreviousData,
    queryFn: () =>
      api<SuggestionPage>('/admin/tags/suggestions', { query: { topic_id: topicId, offset, limit: 20 } }),
  });
}

/** What a merge or move would change: the same call with dry_run, nothing written. */
export const previewMerge = (body: MergeBody) =>
  api<MergeResult>('/admin/tags/merge', { method: 'POST', body: { ...body, dry_run: true } });
export const previewMove = (body: MoveBody) =>
  api<MoveResult>('/admin/tags/move', { method: 'POST', body: { ...body, dry_run: true } });

/** Every tag write refreshes the table, the groups and the pending suggestions (all may change). */
export function useTagWrites() {
  const qc = useQueryClient();
  const refresh = async () => {
    await Promise.all([
      qc.invalidateQueries({ queryKey: ['admin', 'tags'] }),
      qc.invalidateQueries({ queryKey: ['admin', 'tag-groups'] }),
      qc.invalidateQueries({ queryKey: ['admin', 'tag-suggestions'] }),
    ]);
  };
  const m = <A, R>(fn: (a: A) => Promise<R>) => useMutation({ mutationFn: fn, onSuccess: refresh });
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
    deleteTag: m((id: string) => api(`/tags/${id}`, { method: 'DELETE' })),
    mergeTags: m((body: MergeBody) =>
      api<MergeResult>('/admin/tags/merge', { method: 'POST', body: { ...body, dry_run: false } }),
    ),
    moveTags: m((body: MoveBody) =>
      api<MoveResult>('/admin/tags/move', { method: 'POST', body: { ...body, dry_run: false } }),
    ),
    updateTag: m(({ id, ...body }: { id: string; name?: string; tag_group_id?: string | null }) =>
      api(`/tags/${id}`, { method: 'PUT', body }),
    ),
    resolve: m(
      ({ id, action, resolved_by }: { id: string; action: 'approve' | 'reject'; resolved_by: string }) =>
        api(`/tag-normalization-suggestions/${id}/${action}`, { method: 'POST', body: { resolved_by } }),
    ),
  };
}
export type TagWrites = ReturnType<typeof useTagWrites>;
