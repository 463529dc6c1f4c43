import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface Registration {
  registration: 'open' | 'closed';
  /** "Forgot password" can e-mail a link (the server has SMTP) */
  password_reset_by_email: boolean;
}

export const getRegistration = () => api<Registration>('/auth/registration');

export const registrationQuery = () =>
  queryOptions({ queryKey: ['auth', 'registration'], queryFn: getRegistration, staleTime: 5 * 60_000 });

/** Whether this site lets anyone sign up (REGISTRATION=open) or only admins create accounts. */
export const useRegistration = () => useQuery(registrationQuery());
