import { useRef, useState, type FormEvent } from 'react';
import { useI18n, useT } from '../../../lib/i18n';
import { ConfirmDialog } from '../../../lib/dialog';
import { Empty, ErrorState, Loading, errorMessage } from '../../../lib/ui';
import {
  useAccessTokens,
  useCreateToken,
  useRevokeToken,
  type AccessToken,
  type CreatedToken,
} from '../api/tokens';
import { settingsMessages } from '../messages';

/**
 * Settings → Access tokens: create one (name and scope), copy its secret the one time it is shown,
 * see each token's last use, revoke it. The secret lives in this card's state only until "Done".
 */
export function TokensCard() {
  const text = useT(settingsMessages);
  const tokens = useAccessTokens();
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  return (
    <section className="card tokens-card" aria-labelledby="tokens-title" data-testid="tokens-card">
      <h2 id="tokens-title">{text.t('tokensTitle')}</h2>
      <p className="muted">{text.t('tokensLead')}</p>
      {created ? (
        <NewSecret token={created} onDone={() => setCreated(null)} />
      ) : (
        <CreateForm
          onCreated={(token) => {
            setRevoked(null);
            setCreated(token);
          }}
        />
      )}
      {revoked && (
        <p className="saved" role="status">
          {text.t('tokenRevoked', { name: revoked })}
        </p>
      )}
      {tokens.isLoading ? (
        <Loading />
      ) : tokens.isError ? (
        <ErrorState error={tokens.error} onRetry={() => void tokens.refetch()} />
      ) : !tokens.data?.items.length ? (
        <Empty>{text.t('tokensEmpty')}</Empty>
      ) : (
        <ul className="token-list" aria-label={text.t('tokensTitle')}>
          {tokens.data.items.map((token) => (
            <TokenRow key={token.id} token={token} onRevoked={setRevoked} />
          ))}
        </ul>
      )}
    </section>
  );
}

function CreateForm({ onCreated }: { onCreated(token: CreatedToken): void }) {
  const text = useT(settingsMessages);
  const { t } = useI18n();
  const create = useCreateToken();
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setError(null);
    try {
      const token = await create.mutateAsync({
        name: String(form.get('name') ?? ''),
        scope: form.get('scope') === 'write' ? 'write' : 'read',
      });
      // the secret is not left in the mutation cache: this card holds it until "Done"
      create.reset();
      onCreated(token);
    } catch (err) {
      setError(errorMessage(err, t('common.error')));
    }
  };
  return (
    <form className="form token-form" onSubmit={(e) => void submit(e)}>
      <label>
        {text.t('tokenName')}
        <input name="name" required maxLength={100} aria-describedby="token-name-hint" autoComplete="off" />
      </label>
      <span id="token-name-hint" className="muted small">
        {text.t('tokenNameHint')}
      </span>
      <fieldset className="token-scope">
        <legend>{text.t('tokenScope')}</legend>
        <label className="checkbox">
          <input type="radio" name="scope" value="read" defaultChecked /> {text.t('scopeRead')}
        </label>
        <label className="checkbox">
          <input type="radio" name="scope" value="write" /> {text.t('scopeWrite')}
        </label>
      </fieldset>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={create.isPending}>
        {text.t('tokenCreate')}
      </button>
    </form>
  );
}

function NewSecret({ token, onDone }: { token: CreatedToken; onDone(): void }) {
  const text = useT(settingsMessages);
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'copied' | 'failed' | null>(null);
  const copyIt = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopy('copied');
    } catch {
      // no clipboard here (an insecure origin, a refused permission): the field is selected instead
      field.current?.select();
      setCopy('failed');
    }
  };
  return (
    <div className="token-secret" data-testid="token-secret">
      <p role="status">{text.t('tokenCreated', { name: token.name })}</p>
      <div className="secret-value">
        <input
          ref={field}
          readOnly
          value={token.token}
          aria-label={text.t('tokensTitle')}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="token-value"
        />
        <button type="button" onClick={() => void copyIt()}>
          {text.t('tokenCopy')}
        </button>
        <button type="button" className="primary" onClick={onDone}>
          {text.t('tokenDone')}
        </button>
      </div>
      {copy && (
        <p className={copy === 'copied' ? 'saved' : 'muted small'} role="status">
          {copy === 'copied' ? text.t('tokenCopied') : text.t('tokenCopyFailed')}
        </p>
      )}
    </div>
  );
}

function TokenRow({ token, onRevoked }: { token: AccessToken; onRevoked(name: string): void }) {
  const text = useT(settingsMessages);
  const { t, locale } = useI18n();
  const revoke = useRevokeToken();
  const [asking, setAsking] = useState(false);
  const when = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <li data-testid="token-row" data-name={token.name}>
      <div className="token-main">
        <strong>{token.name}</strong>
        <span className="badge">{token.scope === 'write' ? text.t('scopeWrite') : text.t('scopeRead')}</span>
        {token.admin && <span className="badge">{text.t('tokenAdmin')}</span>}
        <code className="muted small">{token.prefix}…</code>
      </div>
      <div className="muted small">
        {text.t('tokenCreatedAt', { date: when(token.created_at) })} ·{' '}
        {token.last_used_at
          ? text.t('tokenLastUsed', { date: when(token.last_used_at) })
          : text.t('tokenNeverUsed')}
      </div>
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {text.t('tokenRevoke')}
      </button>
      {asking && (
        <ConfirmDialog
          title={text.t('tokenRevokeTitle', { name: token.name })}
          confirmLabel={text.t('tokenRevoke')}
          danger
          pending={revoke.isPending}
          error={revoke.error ? errorMessage(revoke.error, t('common.error')) : null}
          onClose={() => setAsking(false)}
          onConfirm={() =>
            revoke.mutate(token.id, {
              onSuccess: () => {
                setAsking(false);
                onRevoked(token.name);
              },
            })
          }
          testId="revoke-dialog"
        >
          <p>{text.t('tokenRevokeLead')}</p>
        </ConfirmDialog>
      )}
    </li>
  );
}
