import { useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { sessionKey, type User } from '../../../lib/session';

/** "Forgot password": the server answers the same whether or not the address has an account. */
export const requestReset = (email: string, locale: string) =>
  request<void>('/api/proxy/auth/password-reset', { method: 'POST', body: { email, locale } });

/** A reset link's new password: the web role signs in with the answered session (cookie). */
export function useConfirmReset() {
  const qc = useQueryClient();
  return async (token: string, password: string) => {
    const { user } = await request<{ user: User }>('/api/session/reset', {
      method: 'POST',
      body: { token, password },
      onUnauthorized: 'return',
    });
    // whoever was signed in before in this browser is not any more
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    qc.setQueryData(sessionKey, user);
    return user;
  };
}
