import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { onUnauthorized } from '../lib/api-client';
import { sessionKey } from '../lib/session';
import { Loading } from '../lib/ui';
import { Layout } from './layout';
import { RequireAdmin, RequireGuest, RequireUser } from './guards';
import { NotFoundPage } from './status-pages';
import { ArticlesPage } from '../features/articles/components/articles-page';

// Only the article list is in the initial bundle; every other page loads on first visit.
const ArticleDetailPage = lazy(() => import('../features/articles/components/article-detail-page'));
const LoginPage = lazy(() => import('../features/auth/components/login-page'));
const RegisterPage = lazy(() => import('../features/auth/components/register-page'));
const AskPage = lazy(() => import('../features/ask/components/ask-page'));
const ReportsPage = lazy(() => import('../features/reports/components/reports-page'));
const SettingsPage = lazy(() => import('../features/settings/components/settings-page'));
const MetricsAdminPage = lazy(() => import('../features/admin-metrics/components/metrics-admin-page'));
const TagsAdminPage = lazy(() => import('../features/admin-tags/components/tags-admin-page'));
const CatalogAdminPage = lazy(() => import('../features/admin-catalog/components/catalog-admin-page'));
const JobsAdminPage = lazy(() => import('../features/admin-jobs/components/jobs-admin-page'));
const MonitoringPage = lazy(() => import('../features/monitoring'));
const WorksAdminPage = lazy(() => import('../features/admin-works/components/works-admin-page'));
const UsersAdminPage = lazy(() => import('../features/admin-users/components/users-admin-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/components/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/components/reset-password-page'));

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

  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/articles" replace />} />
        <Route path="articles" element={<ArticlesPage />} />
        <Route
          path="articles/:id"
          element={
            <Page>
              <ArticleDetailPage />
            </Page>
          }
        />
        <Route
          path="reports"
          element={
            <Page>
              <ReportsPage />
            </Page>
          }
        />
        <Route element={<RequireGuest />}>
          <Route
            path="login"
            element={
              <Page>
                <LoginPage />
              </Page>
            }
          />
          <Route
            path="register"
            element={
              <Page>
                <RegisterPage />
              </Page>
            }
          />
          <Route
            path="forgot-password"
            element={
              <Page>
                <ForgotPasswordPage />
              </Page>
            }
          />
        </Route>
        {/* a reset link works whoever is signed in in this browser: it signs in as its account */}
        <Route
          path="reset-password"
          element={
            <Page>
              <ResetPasswordPage />
            </Page>
          }
        />
        <Route element={<RequireUser />}>
          <Route
            path="ask"
            element={
              <Page>
                <AskPage />
              </Page>
            }
          />
          <Route
            path="settings"
            element={
              <Page>
                <SettingsPage />
              </Page>
            }
          />
        </Route>
        <Route path="admin" element={<RequireAdmin />}>
          <Route index element={<Navigate to="/admin/metrics" replace />} />
          <Route
            path="metrics"
            element={
              <Page>
                <MetricsAdminPage />
              </Page>
            }
          />
          <Route
            path="tags"
            element={
              <Page>
                <TagsAdminPage />
              </Page>
            }
          />
          <Route
            path="catalog"
            element={
              <Page>
                <CatalogAdminPage />
              </Page>
            }
          />
          <Route
            path="jobs"
            element={
              <Page>
                <JobsAdminPage />
              </Page>
            }
          />
          <Route
            path="works"
            element={
              <Page>
                <WorksAdminPage />
              </Page>
            }
          />
          <Route
            path="users"
            element={
              <Page>
                <UsersAdminPage />
              </Page>
            }
          />
          <Route
            path="monitoring"
            element={
              <Page>
                <MonitoringPage />
              </Page>
            }
          />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function Page({ children }: { children: React.ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}
