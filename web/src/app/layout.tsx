import { useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Keyboard, Menu, Newspaper, X } from 'lucide-react';
import { LOCALES, useI18n, type Locale } from '../lib/i18n';
import { useSession, useSessionActions } from '../lib/session';
import type { MessageName } from '../lib/messages';
import { useHotkeys } from '../lib/keyboard';
import { listHref } from '../features/articles/model/list-state';
import { HelpOverlay } from './help-overlay';
import { TopicNav } from './topic-nav';
import { registrationQuery } from '../features/auth/api/get-registration';
import './reader.css';

const ADMIN_LINKS: { to: string; label: MessageName }[] = [
  { to: '/admin/metrics', label: 'nav.admin.metrics' },
  { to: '/admin/tags', label: 'nav.admin.tags' },
  { to: '/admin/catalog', label: 'nav.admin.catalog' },
  { to: '/admin/works', label: 'nav.admin.works' },
  { to: '/admin/jobs', label: 'nav.admin.jobs' },
  { to: '/admin/users', label: 'nav.admin.users' },
  { to: '/admin/monitoring', label: 'nav.admin.monitoring' },
];

export function Layout() {
  const { t, locale, setLocale } = useI18n();
  const { user, isAdmin, isLoading: sessionLoading } = useSession();
  const { logout } = useSessionActions();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(false);
  const location = useLocation();
  const { pathname } = location;
  const close = () => setOpen(false);
  const readerPage =
    pathname.startsWith('/articles') || pathname.startsWith('/reports') || pathname === '/ask';
  // REGISTRATION=closed: no sign-up link (the sign-up page says it is closed); only guests see it, so
  // only they ask
  const signUpOpen =
    useQuery({ ...registrationQuery(), enabled: !sessionLoading && !user }).data?.registration !== 'closed';

  // shortcuts of every page; the list and the reader view add their own (j, k, o, f, m)
  useHotkeys({
    '?': () => setHelp((h) => !h),
    '/': () => {
      const search = document.getElementById('article-search');
      if (search) return search.focus();
      // from the reader view: the list it was opened from, not a fresh one
      const from = pathname.startsWith('/articles/')
        ? new URLSearchParams(location.search).get('from')
        : null;
      void navigate(listHref(from), { state: { focusSearch: true } });
    },
    'g a': () => void navigate('/articles'),
  });

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header className="topbar">
        <NavLink to="/articles" className="brand" onClick={close}>
          <Newspaper size={20} aria-hidden="true" /> {t('app.name')}
        </NavLink>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          aria-label={t('nav.menu')}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <X size={20} aria-hidden="true" /> : <Menu size={20} aria-hidden="true" />}
        </button>
        <nav id="site-nav" className={open ? 'nav open' : 'nav'} aria-label={t('nav.main')}>
          <NavLink to="/articles" onClick={close}>
            {t('nav.articles')}
          </NavLink>
          <NavLink to="/reports" onClick={close}>
            {t('nav.reports')}
          </NavLink>
          {user && (
            <NavLink to="/settings" onClick={close}>
              {t('nav.settings')}
            </NavLink>
          )}
          {isAdmin && (
            <div className="admin-nav" role="group" aria-label={t('nav.admin')}>
              <span className="admin-label">{t('nav.admin')}</span>
              {ADMIN_LINKS.map((l) => (
                <NavLink key={l.to} to={l.to} onClick={close}>
                  {t(l.label)}
                </NavLink>
              ))}
            </div>
          )}
          <div className="nav-end">
            <button
              type="button"
              className="icon-button"
              aria-label={t('nav.shortcuts')}
              title={t('nav.shortcuts')}
              onClick={() => setHelp(true)}
              data-testid="shortcuts-button"
            >
              <Keyboard size={18} aria-hidden="true" />
            </button>
            <label className="locale-select">
              <span className="visually-hidden">{t('nav.language')}</span>
              <select value={locale} onChange={(e) => setLocale(e.target.value as Locale)}>
                {LOCALES.map((l) => (
                  <option key={l.value} value={l.value}>
                    {l.label}
                  </option>
                ))}
              </select>
            </label>
            {user ? (
              <>
                <span className="user-name" data-testid="user-name">
                  {user.display_name ?? user.email}
                </span>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    close();
                    void logout().then(() => navigate('/articles'));
                  }}
                >
                  {t('nav.logout')}
                </button>
              </>
            ) : (
              <>
                <NavLink to="/login" onClick={close}>
                  {t('nav.login')}
                </NavLink>
                {signUpOpen && (
                  <NavLink to="/register" className="button-link" onClick={close}>
                    {t('nav.register')}
                  </NavLink>
                )}
              </>
            )}
          </div>
        </nav>
      </header>
      {readerPage && <TopicNav signedIn={!!user} />}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
    </div>
  );
}
