import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';
import type { Topic } from '../../../lib/topics';

export type Source = ApiResponse<'/admin/sources'>[number];
export type Provider = ApiResponse<'/admin/providers'>[number];

export type Resource = 'topics' | 'sources' | 'providers';

export function useAdminList<T>(resource: Resource) {
  return useQuery({ queryKey: ['admin', resource], queryFn: () => api<T[]>(`/admin/${resource}`) });
}

/** Create, update and delete for one admin resource; every change refreshes its list (and topics). */
export function useAdminWrite(resource: Resource) {
  const qc = useQueryClient();
  const done = async () => {
    await qc.invalidateQueries({ queryKey: ['admin', resource] });
    if (resource === 'topics') await qc.invalidateQueries({ queryKey: ['topics'] });
  };
  return {
    create: useMutation({
      mutationFn: (body: Record<string, unknown>) =>
        api<unknown>(`/admin/${resource}`, { method: 'POST', body }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, ...body }: { id: string } & Record<string, unknown>) =>
        api<unknown>(`/admin/${resource}/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        api<void>(`/admin/${resource}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: done,
    }),
  };
}

export type { Topic };

export interface ProviderTestResult {
  ok: boolean;
  model: string;
  latency_ms: number;
  error?: string;
}

/** POST /admin/providers/{id}/test: one small request to the provider. */
export function useTestProvider() {
  return useMutation({
    mutationFn: (id: string) =>
      api<ProviderTestResult>(`/admin/providers/${encodeURIComponent(id)}/test`, { method: 'POST' }),
  });
}
