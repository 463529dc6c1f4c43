import '../auth.css';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import { requestReset } from '../api/password-reset';

/** "Forgot password": one e-mail field; the answer never says whether the address has an account. */
export default function ForgotPasswordPage() {
  const { t, locale } = useI18n();
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email'));
    setBusy(true);
    setError(null);
    try {
      await requestReset(email, locale);
      setSent(true);
    } catch (err) {
      setError(errorMessage(err, t('common.error')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="auth-page">
      <h1>{t('auth.forgot.title')}</h1>
      {sent ? (
        <p role="status" className="notice" data-testid="reset-sent">
          {t('auth.forgot.sent')}
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="form">
          <p className="muted">{t('auth.forgot.lead')}</p>
          <label>
            {t('auth.email')}
            <input name="email" type="email" autoComplete="email" required />
          </label>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" disabled={busy}>
            {t('auth.forgot.submit')}
          </button>
        </form>
      )}
      <p>
        <Link to="/login">{t('auth.forgot.back')}</Link>
      </p>
    </section>
  );
}
