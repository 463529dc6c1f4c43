import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';

export type AdminMetricDefinition = ApiResponse<'/admin/metric-definitions'>[number];

const key = ['admin', 'metric-definitions'];

export function useAdminMetricDefinitions() {
  return useQuery({
    queryKey: key,
    queryFn: () => api<AdminMetricDefinition[]>('/admin/metric-definitions'),
  });
}

/** The icon whitelist comes from the server: the picker can only offer what the API accepts. */
export function useIconWhitelist() {
  return useQuery({
    queryKey: [...key, 'icons'],
    queryFn: () => api<{ icons: string[] }>('/admin/metric-definitions/icons'),
    staleTime: Infinity,
  });
}

export function useUpdateMetricDefinition() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; enabled?: boolean; icon_name?: string }) =>
      api<AdminMetricDefinition>(`/admin/metric-definitions/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body,
      }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: key });
      // the public catalog drives the sort menu and the article cards
      await qc.invalidateQueries({ queryKey: ['metric-definitions'] });
      await qc.invalidateQueries({ queryKey: ['articles'] });
    },
  });
}
