import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';

interface Props {
  title: string;
  submitLabel: string;
  /** sends the form and moves on (navigation); a throw is shown as the form's error */
  onSubmit(form: FormData): Promise<void>;
  /** the answer this page explains in its own words (401 on login, 409 on register) */
  known: { status: number; message: string };
  /** the fields after the email field */
  children: ReactNode;
  /** the line under the form (a link to the other page) */
  footer?: ReactNode;
}

/** The sign-in and sign-up form: email first, busy while sending, one error line. */
export function AuthForm({ title, submitLabel, onSubmit, known, children, footer }: Props) {
  const { t } = useI18n();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await onSubmit(form);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === known.status
          ? known.message
          : errorMessage(err, t('common.error')),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="auth-page">
      <h1>{title}</h1>
      <form onSubmit={(e) => void submit(e)} className="form">
        <label>
          {t('auth.email')}
          <input name="email" type="email" autoComplete="email" required />
        </label>
        {children}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </form>
      {footer && <p>{footer}</p>}
    </section>
  );
}
