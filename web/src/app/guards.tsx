import { useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session';
import { Loading } from '../lib/ui';
import { ForbiddenPage } from './status-pages';

function useLoginRedirect() {
  const location = useLocation();
  return `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** Guests are sent to the login page and come back after signing in. */
export function RequireUser() {
  const { user, isLoading } = useSession();
  const login = useLoginRedirect();
  if (isLoading) return <Loading />;
  return user ? <Outlet /> : <Navigate to={login} replace />;
}

/** Guests get the login page, signed-in non-admins a 403 page; admin routes never render for them. */
export function RequireAdmin() {
  const { user, isLoading, isAdmin } = useSession();
  const login = useLoginRedirect();
  if (isLoading) return <Loading />;
  if (!user) return <Navigate to={login} replace />;
  return isAdmin ? <Outlet /> : <ForbiddenPage />;
}

/**
 * Sign-up and sign-in are not offered to someone already signed in: arriving signed in sends them
 * to the articles. Signing in on the page itself is left alone, so the form's own redirect wins.
 */
export function RequireGuest() {
  const { user, isLoading } = useSession();
  const arrivedSignedIn = useRef<boolean | null>(null);
  if (isLoading) return <Loading />;
  arrivedSignedIn.current ??= !!user;
  return arrivedSignedIn.current ? <Navigate to="/articles" replace /> : <Outlet />;
}
