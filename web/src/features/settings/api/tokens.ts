import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { ApiBody, ApiResponse } from '../../../lib/api-types';

export type AccessToken = ApiResponse<'/user/tokens'>['items'][number];
export type CreatedToken = ApiResponse<'/user/tokens', 'post', 201>;
export type NewToken = ApiBody<'/user/tokens', 'post'>;

const tokensKey = ['user', 'tokens'];

export function useAccessTokens() {
  return useQuery({
    queryKey: tokensKey,
    queryFn: () => api<{ items: AccessToken[] }>('/user/tokens'),
  });
}

/** The answer holds the secret: it lives in the card's state until dismissed, never in the cache. */
export function useCreateToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NewToken) => api<CreatedToken>('/user/tokens', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/user/tokens/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: tokensKey }),
  });
}
