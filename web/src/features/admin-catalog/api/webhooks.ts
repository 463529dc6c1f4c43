import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiResponse } from '../../../lib/api-types';

export type Webhook = ApiResponse<'/admin/webhooks'>[number];
export type WebhookDelivery = ApiResponse<'/admin/webhooks/{id}/deliveries'>['items'][number];
export type WebhookCreated = Webhook & { secret: string };

export const WEBHOOK_EVENTS = ['article.published', 'report.completed', 'run.failed'] as const;

const KEY = ['admin', 'webhooks'];

export function useWebhooks() {
  return useQuery({ queryKey: KEY, queryFn: () => api<Webhook[]>('/admin/webhooks') });
}

/** the endpoint's last 50 deliveries, refreshed while any is still waiting */
export function useWebhookDeliveries(id: string) {
  return useQuery({
    queryKey: [...KEY, id, 'deliveries'],
    queryFn: () => api<{ items: WebhookDelivery[] }>(`/admin/webhooks/${encodeURIComponent(id)}/deliveries`),
    refetchInterval: (q) =>
      q.state.data?.items.some((d) => d.status === 'pending' || d.status === 'retrying') ? 2000 : false,
  });
}

export function useWebhookWrites() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: KEY });
  return {
    create: useMutation({
      mutationFn: (body: Record<string, unknown>) =>
        api<WebhookCreated>('/admin/webhooks', { method: 'POST', body }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, ...body }: { id: string } & Record<string, unknown>) =>
        api<Webhook>(`/admin/webhooks/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: string) =>
        api<void>(`/admin/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: done,
    }),
    resend: useMutation({
      mutationFn: ({ id, deliveryId }: { id: string; deliveryId: string }) =>
        api<WebhookDelivery>(
          `/admin/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
          { method: 'POST' },
        ),
      onSuccess: done,
    }),
  };
}
