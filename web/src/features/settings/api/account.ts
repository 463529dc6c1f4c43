import { useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client';
import { sessionKey, type User } from '../../../lib/session';

/**
 * A password change and "sign out other sessions" each end the old tokens of the account, this
 * browser's included: the web role answers with the new session in the cookie, so this page stays
 * signed in.
 */
export function useAccountActions() {
  const qc = useQueryClient();
  const keep = ({ user }: { user: User }) => qc.setQueryData(sessionKey, user);
  return {
    changePassword: async (body: {
      current_password: string;
      new_password: string;
      sign_out_others: boolean;
    }) => keep(await request<{ user: User }>('/api/session/password', { method: 'POST', body })),
    signOutOthers: async () =>
      keep(await request<{ user: User }>('/api/session/logout-others', { method: 'POST', body: {} })),
  };
}
