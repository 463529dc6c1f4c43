import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/ui';
import { useI18n, useT } from '../../../lib/i18n';
import { resetPassword, type Account, type ResetAnswer } from '../api/users';
import { usersMessages } from '../messages';

/**
 * Reset one account's password: the admin picks a one-time link or a temporary password; the
 * answer is shown here once (the server keeps only a hash) with a copy button.
 */
export function ResetPanel({ account, onClose }: { account: Account; onClose: () => void }) {
  const text = useT(usersMessages);
  const { locale } = text;
  const { t } = useI18n();
  const [answer, setAnswer] = useState<ResetAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const reset = async (mode: 'link' | 'temporary') => {
    setBusy(true);
    setError(null);
    try {
      setAnswer(await resetPassword(account.id, mode));
    } catch (err) {
      setError(errorMessage(err, t('common.error')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card reset-panel" aria-labelledby="reset-title" data-testid="reset-panel">
      <h2 id="reset-title" tabIndex={-1} ref={heading}>
        {text.t('resetTitle', { email: account.email })}
      </h2>
      {!answer ? (
        <>
          <p className="muted">{text.t('resetLead')}</p>
          <div className="buttons">
            <button type="button" disabled={busy} onClick={() => void reset('link')}>
              {text.t('makeLink')}
            </button>
            <button type="button" disabled={busy} onClick={() => void reset('temporary')}>
              {text.t('makeTemporary')}
            </button>
            <button type="button" onClick={onClose}>
              {text.t('cancel')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p role="status">
            {answer.mode === 'link'
              ? text.t('linkReady', {
                  email: account.email,
                  until: new Date(answer.expires_at).toLocaleString(locale),
                })
              : text.t('passwordReady', { email: account.email })}
          </p>
          <Secret value={answer.mode === 'link' ? answer.url : answer.password} />
          <div className="buttons">
            <button type="button" onClick={onClose}>
              {text.t('close')}
            </button>
          </div>
        </>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function Secret({ value }: { value: string }) {
  const text = useT(usersMessages);
  const [copied, setCopied] = useState(false);
  return (
    <div className="secret-value">
      <code data-testid="reset-secret">{value}</code>
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? text.t('copied') : text.t('copy')}
      </button>
    </div>
  );
}
