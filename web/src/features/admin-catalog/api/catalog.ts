import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { Topic } from '../../../lib/topics';

export interface Source {
  id: string;
  topic_id: string;
  name: string;
  kind: 'rss' | 'arxiv';
  url: string;
  enabled: boolean;
  last_fetched_at: string | null;
  last_error: string | null;
}

export interface Provider {
  id: string;
  name: string;
  type: 'text' | 'multimodal';
  base_url: string;
  model: string;
  image_model: string | null;
  has_api_key: boolean;
  is_active: boolean;
}

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
