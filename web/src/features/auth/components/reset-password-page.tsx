import '../auth.css';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import { useConfirmReset } from '../api/password-reset';

/** The token rides in the fragment (`#token=…`): it never reaches a server log or a Referer header. */
const tokenOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('token');

/** A reset link's page: a new password twice; on success the user is signed in. */
export default function ResetPasswordPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const confirm = useConfirmReset();
  const [token] = useState(() => tokenOf(window.location.hash));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password'));
    if (password !== String(form.get('confirm'))) return setError(t('auth.reset.mismatch'));
    setBusy(true);
    setError(null);
    try {
      await confirm(token!, password);
      // the link is used up: it leaves the address bar and the history entry
      window.history.replaceState(null, '', '/reset-password');
      await navigate('/settings', { replace: true, state: { notice: 'password-reset' } });
    } catch (err) {
      setError(errorMessage(err, t('common.error')));
    } finally {
      setBusy(false);
    }
  };

  if (!token)
    return (
      <section className="auth-page">
        <h1>{t('auth.reset.title')}</h1>
        <p role="alert" className="form-error">
          {t('auth.reset.noToken')}
        </p>
        <p>
          <Link to="/forgot-password">{t('auth.forgot.title')}</Link>
        </p>
      </section>
    );

  return (
    <section className="auth-page">
      <h1>{t('auth.reset.title')}</h1>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          {t('auth.reset.newPassword')}
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={10}
            required
            aria-describedby="reset-password-hint"
          />
        </label>
        <span id="reset-password-hint" className="muted small">
          {t('auth.passwordHint')}
        </span>
        <label>
          {t('auth.reset.confirm')}
          <input name="confirm" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {t('auth.reset.submit')}
        </button>
      </form>
    </section>
  );
}
