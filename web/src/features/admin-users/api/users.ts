import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface Account {
  id: string;
  email: string;
  display_name: string | null;
  role: 'user' | 'admin';
  disabled: boolean;
  created_at: string;
}

export type ResetAnswer =
  { mode: 'link'; url: string; expires_at: string } | { mode: 'temporary'; password: string };

export const USERS_PAGE = 25;
const usersKey = ['admin', 'users'] as const;

/** GET /admin/users: newest first; search matches e-mail or name. */
export function useUsers(search: string, offset: number) {
  return useQuery({
    queryKey: [...usersKey, search, offset],
    queryFn: () =>
      api<{ items: Account[]; total: number }>('/admin/users', {
        query: { search: search || undefined, limit: USERS_PAGE, offset },
      }),
    placeholderData: keepPreviousData,
  });
}

/** Promote, demote, disable, enable: the list is read again after each. */
export function useChangeUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; role?: Account['role']; disabled?: boolean }) =>
      api<Account>(`/admin/users/${id}`, { method: 'PATCH', body }),
    onSettled: () => qc.invalidateQueries({ queryKey: usersKey }),
  });
}

export function useAddUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; password: string; display_name?: string; role: Account['role'] }) =>
      api<{ user: Account }>('/admin/users', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersKey }),
  });
}

/** The answer is shown once and kept nowhere else (no query cache). */
export const resetPassword = (id: string, mode: 'link' | 'temporary') =>
  api<ResetAnswer>(`/admin/users/${id}/password-reset`, { method: 'POST', body: { mode } });
