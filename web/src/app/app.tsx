import { useEffect } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { onUnauthorized } from '../lib/api-client';
import { sessionKey, sessionQuery } from '../lib/session';
import { dashboardFilter, requestCatalogEarly, requestedTab } from '../features/monitoring/api/early-catalog';
import { lazyPage, type LazyPage } from '../lib/lazy-page';
import { Layout } from './layout';
import { RequireAdmin, RequireGuest, RequireUser } from './guards';
import { NotFoundPage } from './status-pages';
import { ArticlesPage } from '../features/articles/components/articles-page';

// Only the article list is in the initial bundle; every other page loads on first visit, its code
// requested as soon as the route is known (while the session is checked), not when it renders.
const ArticleDetailPage = lazyPage(() => import('../features/articles/components/article-detail-page'));
const LoginPage = lazyPage(() => import('../features/auth/components/login-page'));
const RegisterPage = lazyPage(() => import('../features/auth/components/register-page'));
const AskPage = lazyPage(() => import('../features/ask/components/ask-page'));
const ReportsPage = lazyPage(() => import('../features/reports/components/reports-page'));
const SettingsPage = lazyPage(() => import('../features/settings/components/settings-page'));
const MetricsAdminPage = lazyPage(() => import('../features/admin-metrics/components/metrics-admin-page'));
const TagsAdminPage = lazyPage(() => import('../features/admin-tags/components/tags-admin-page'));
const CatalogAdminPage = lazyPage(() => import('../features/admin-catalog/components/catalog-admin-page'));
const JobsAdminPage = lazyPage(() => import('../features/admin-jobs/components/jobs-admin-page'));
const MonitoringPage = lazyPage(() => import('../features/monitoring'));
const WorksAdminPage = lazyPage(() => import('../features/admin-works/components/works-admin-page'));
const UsersAdminPage = lazyPage(() => import('../features/admin-users/components/users-admin-page'));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/components/reset-password-page'));

const MONITORING = /^\/admin\/monitoring\/?$/;

/** the lazily loaded page of each path: its code is requested as soon as the path is known */
const PAGES: [RegExp, LazyPage][] = [
  [/^\/articles\/[^/]+\/?$/, ArticleDetailPage],
  [/^\/reports\/?$/, ReportsPage],
  [/^\/login\/?$/, LoginPage],
  [/^\/register\/?$/, RegisterPage],
  [/^\/forgot-password\/?$/, ForgotPasswordPage],
  [/^\/reset-password\/?$/, ResetPasswordPage],
  [/^\/ask\/?$/, AskPage],
  [/^\/settings\/?$/, SettingsPage],
  [/^\/admin\/metrics\/?$/, MetricsAdminPage],
  [/^\/admin\/tags\/?$/, TagsAdminPage],
  [/^\/admin\/catalog\/?$/, CatalogAdminPage],
  [/^\/admin\/jobs\/?$/, JobsAdminPage],
  [/^\/admin\/works\/?$/, WorksAdminPage],
  [/^\/admin\/users\/?$/, UsersAdminPage],
  [MONITORING, MonitoringPage],
];

/**
 * Starts what the page at this address needs before it renders: its code, and for an admin opening
 * the monitoring dashboard the panel catalog, so neither waits for the other nor for the first
 * render, and once the catalog is in, the first batch of panel data of the tab it opens on. Called
 * before the app's first render (main.tsx) and on every navigation.
 */
export function preload(qc: QueryClient, at: { pathname: string; search: string }): void {
  // a failure shows on the page itself, which loads again when it renders
  PAGES.find(([path]) => path.test(at.pathname))?.[1]
    .load()
    .catch(() => undefined);
  if (MONITORING.test(at.pathname))
    qc.ensureQueryData(sessionQuery).then(
      (user) => {
        if (user?.role !== 'admin') return;
        const params = new URLSearchParams(at.search);
        const { range, env } = dashboardFilter(params);
        requestCatalogEarly(range, env, requestedTab(params));
      },
      () => undefined,
    );
}

export function App() {
  const navigate = useNavigate();
  const location = useLocation();
  const qc = useQueryClient();
  useEffect(() => {
    onUnauthorized(() => {
      qc.setQueryData(sessionKey, null);
      if (!location.pathname.startsWith('/login')) {
        void navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
      }
    });
  }, [navigate, location, qc]);

  const { pathname, search } = location;
  useEffect(() => {
    preload(qc, { pathname, search });
    // on arriving at a page only: a filter changed on the page is the page's own to fetch
  }, [pathname, qc]);

  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/articles" replace />} />
        <Route path="articles" element={<ArticlesPage />} />
        <Route path="articles/:id" element={<ArticleDetailPage />} />
        <Route path="reports" element={<ReportsPage />} />
        <Route element={<RequireGuest />}>
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="forgot-password" element={<ForgotPasswordPage />} />
        </Route>
        {/* a reset link works whoever is signed in in this browser: it signs in as its account */}
        <Route path="reset-password" element={<ResetPasswordPage />} />
        <Route element={<RequireUser />}>
          <Route path="ask" element={<AskPage />} />
          <Route path="settings" element={<SettingsPage />} />
        </Route>
        <Route path="admin" element={<RequireAdmin />}>
          <Route index element={<Navigate to="/admin/metrics" replace />} />
          <Route path="metrics" element={<MetricsAdminPage />} />
          <Route path="tags" element={<TagsAdminPage />} />
          <Route path="catalog" element={<CatalogAdminPage />} />
          <Route path="jobs" element={<JobsAdminPage />} />
          <Route path="works" element={<WorksAdminPage />} />
          <Route path="users" element={<UsersAdminPage />} />
          <Route path="monitoring" element={<MonitoringPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
