import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useSessionActions } from '../../../lib/session';
import { errorMessage } from '../../../lib/ui';

/** Only same-site paths are followed after signing in. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/articles';
}

export default function LoginPage() {
  const { t } = useI18n();
  const { login } = useSessionActions();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await login(String(form.get('email')), String(form.get('password')));
      await navigate(safeNext(params.get('next')), { replace: true });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? t('auth.login.failed')
          : errorMessage(err, t('common.error')),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="auth-page">
      <h1>{t('auth.login.title')}</h1>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          {t('auth.email')}
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          {t('auth.password')}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('auth.login.submit')}
        </button>
      </form>
      <p>
        {t('auth.login.noAccount')} <Link to="/register">{t('nav.register')}</Link>
      </p>
    </section>
  );
}
