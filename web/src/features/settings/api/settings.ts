import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiBody, ApiResponse } from '../../../lib/api-types';

export type Subscription = ApiResponse<'/user/subscriptions'>['subscriptions'][number];
export type NotificationSettings = ApiResponse<'/user/notification-settings'>;

/** The settings answer: the saved settings and which delivery channels the server can use. */
export type NotificationSettingsView = NotificationSettings;
/** What the form sends (the delivery channels are the server's to say). */
export type NotificationSettingsInput = ApiBody<'/user/notification-settings', 'put'>;

const subsKey = ['user', 'subscriptions'];
const settingsKey = ['user', 'notification-settings'];

export function useSubscriptions() {
  return useQuery({
    queryKey: subsKey,
    queryFn: () => api<{ subscriptions: Subscription[] }>('/user/subscriptions'),
  });
}

export function useToggleSubscription() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ topicId, subscribe }: { topicId: string; subscribe: boolean }) =>
      subscribe
        ? api<unknown>('/user/subscriptions', { method: 'POST', body: { topic_id: topicId } })
        : api<void>(`/user/subscriptions/${encodeURIComponent(topicId)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: subsKey }),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: () => api<NotificationSettingsView>('/user/notification-settings'),
  });
}

export function useSaveNotificationSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettingsInput) =>
      api<NotificationSettingsView>('/user/notification-settings', { method: 'PUT', body }),
    onSuccess: (data) => qc.setQueryData(settingsKey, data),
  });
}
