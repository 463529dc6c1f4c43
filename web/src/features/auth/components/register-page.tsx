import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useSessionActions } from '../../../lib/session';
import { errorMessage } from '../../../lib/ui';

export default function RegisterPage() {
  const { t } = useI18n();
  const { register } = useSessionActions();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await register(
        String(form.get('email')),
        String(form.get('password')),
        String(form.get('display_name') ?? '').trim() || undefined,
      );
      await navigate('/settings', { replace: true });
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 409
          ? t('auth.register.exists')
          : errorMessage(err, t('common.error')),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="auth-page">
      <h1>{t('auth.register.title')}</h1>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          {t('auth.email')}
          <input name="email" type="email" autoComplete="email" required />
        </label>
        <label>
          {t('auth.password')}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            aria-describedby="pw-hint"
          />
          <small id="pw-hint">{t('auth.passwordHint')}</small>
        </label>
        <label>
          {t('auth.displayName')}
          <input name="display_name" type="text" autoComplete="nickname" maxLength={100} />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('auth.register.submit')}
        </button>
      </form>
      <p>
        {t('auth.register.hasAccount')} <Link to="/login">{t('nav.login')}</Link>
      </p>
    </section>
  );
}
