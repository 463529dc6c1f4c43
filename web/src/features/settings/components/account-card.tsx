import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { useSession } from '../../../lib/session';
import { useI18n, useT } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import { useAccountActions } from '../api/account';
import { accountMessages } from '../account-messages';

/** Settings: change the password, sign out the other sessions. */
export function AccountCard() {
  const a = useT(accountMessages);
  const { user } = useSession();
  const { state } = useLocation() as { state: { notice?: string } | null };
  return (
    <section className="card account-card" aria-labelledby="account-title">
      <h2 id="account-title">{a.t('title')}</h2>
      {user && <p className="muted">{a.t('signedInAs', { email: user.email })}</p>}
      {state?.notice === 'password-reset' && (
        <p role="status" className="saved">
          {a.t('resetDone')}
        </p>
      )}
      <PasswordForm />
      <OtherSessions />
    </section>
  );
}

function PasswordForm() {
  const a = useT(accountMessages);
  const { t } = useI18n();
  const { changePassword } = useAccountActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const next = String(form.get('new_password'));
    setDone(null);
    if (next !== String(form.get('confirm'))) return setError(a.t('mismatch'));
    const signOutOthers = form.get('sign_out_others') === 'on';
    setBusy(true);
    setError(null);
    try {
      await changePassword({
        current_password: String(form.get('current_password')),
        new_password: next,
        sign_out_others: signOutOthers,
      });
      formEl.reset();
      setDone(signOutOthers ? a.t('changedOthersOut') : a.t('changed'));
    } catch (err) {
      setError(errorMessage(err, t('common.error')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-labelledby="password-title">
      <h3 id="password-title">{a.t('changePassword')}</h3>
      <label>
        {a.t('current')}
        <input name="current_password" type="password" autoComplete="current-password" required />
      </label>
      <label>
        {a.t('next')}
        <input
          name="new_password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
          aria-describedby="new-password-hint"
        />
      </label>
      <span id="new-password-hint" className="muted small">
        {a.t('hint')}
      </span>
      <label>
        {a.t('confirm')}
        <input name="confirm" type="password" autoComplete="new-password" minLength={10} required />
      </label>
      <label className="checkbox">
        <input name="sign_out_others" type="checkbox" defaultChecked /> {a.t('signOutOthers')}
      </label>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {done && (
        <p className="saved" role="status">
          {done}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {a.t('submit')}
      </button>
    </form>
  );
}

function OtherSessions() {
  const a = useT(accountMessages);
  const { t } = useI18n();
  const { signOutOthers } = useAccountActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    setDone(false);
    try {
      await signOutOthers();
      setDone(true);
    } catch (err) {
      setError(errorMessage(err, t('common.error')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="sessions" aria-labelledby="sessions-title">
      <h3 id="sessions-title">{a.t('sessions')}</h3>
      <p className="muted">{a.t('sessionsLead')}</p>
      <button type="button" disabled={busy} onClick={() => void run()}>
        {a.t('signOutOthersButton')}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {done && (
        <p className="saved" role="status">
          {a.t('othersOut')}
        </p>
      )}
    </div>
  );
}
