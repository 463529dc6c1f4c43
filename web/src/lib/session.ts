import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, request } from './api-client';
import type { User } from './api-types';

export type { User };

export const sessionKey = ['session'] as const;

async function fetchMe(): Promise<User | null> {
  try {
    return await api<User>('/auth/me', { onUnauthorized: 'return' });
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** the session's query: `useSession` reads it, and the app asks for it before its first render (main.tsx) */
export const sessionQuery = { queryKey: sessionKey, queryFn: fetchMe, staleTime: 5 * 60_000, retry: false };

/** The signed-in user, or null for a guest. */
export function useSession() {
  const q = useQuery(sessionQuery);
  return { user: q.data ?? null, isLoading: q.isLoading, isAdmin: q.data?.role === 'admin' };
}

export function useSessionActions() {
  const qc = useQueryClient();
  const settle = async (user: User | null) => {
    // everything cached so far was fetched as someone else
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    qc.setQueryData(sessionKey, user);
  };
  return {
    async login(email: string, password: string) {
      const { user } = await request<{ user: User }>('/api/session', {
        method: 'POST',
        body: { email, password },
        onUnauthorized: 'return',
      });
      await settle(user);
      return user;
    },
    /** `locale`: the page's language, which becomes the language of the account's notifications */
    async register(email: string, password: string, displayName?: string, locale?: 'en' | 'zh-TW') {
      const { user } = await request<{ user: User }>('/api/session/register', {
        method: 'POST',
        body: {
          email,
          password,
          ...(displayName ? { display_name: displayName } : {}),
          ...(locale ? { locale } : {}),
        },
      });
      await settle(user);
      return user;
    },
    async logout() {
      await request<void>('/api/session', { method: 'DELETE' });
      await settle(null);
    },
  };
}
