import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSession } from '../../../lib/session';
import { useI18n, useT } from '../../../lib/i18n';
import { ErrorState, Loading, errorMessage } from '../../../lib/ui';
import { USERS_PAGE, useChangeUser, useUsers, type Account } from '../api/users';
import { usersMessages } from '../messages';
import { AddUserForm } from './add-user-form';
import { ResetPanel } from './reset-panel';
import '../users.css';

/**
 * The admin Users page: search, promote and demote, disable and enable, reset a password. The
 * search and page are in the address, so a reload or a shared link shows the same list.
 */
export default function UsersAdminPage() {
  const text = useT(usersMessages);
  const { locale } = text;
  const { t } = useI18n();
  const { user: me } = useSession();
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const offset = Math.max(0, Number(params.get('offset')) || 0);
  const users = useUsers(search, offset);
  const change = useChangeUser();
  const [resetting, setResetting] = useState<Account | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const setQuery = (q: string, off = 0) => {
    const next = new URLSearchParams();
    if (q) next.set('q', q);
    if (off) next.set('offset', String(off));
    setParams(next, { replace: true });
  };
  const act = (account: Account, body: { role?: Account['role']; disabled?: boolean }) => {
    setNotice(null);
    change.mutate(
      { id: account.id, ...body },
      {
        onSuccess: (u) =>
          setNotice(
            body.role
              ? text.t('changedRole', {
                  email: u.email,
                  role: u.role === 'admin' ? text.t('roleAdmin') : text.t('roleUser'),
                })
              : text.t('changedState', {
                  email: u.email,
                  state: u.disabled ? text.t('disabled') : text.t('active'),
                }),
          ),
      },
    );
  };
  const page = users.data;

  return (
    <section className="users-page">
      <h1>{text.t('title')}</h1>
      <div className="users-toolbar">
        <label>
          <span className="visually-hidden">{text.t('search')}</span>
          <input
            type="search"
            placeholder={text.t('search')}
            aria-label={text.t('search')}
            defaultValue={search}
            onChange={(e) => setQuery(e.target.value.trim())}
          />
        </label>
        {page && <span className="muted">{text.t('count', { count: page.total })}</span>}
      </div>
      {resetting && <ResetPanel key={resetting.id} account={resetting} onClose={() => setResetting(null)} />}
      {change.isError && (
        <p className="form-error" role="alert">
          {errorMessage(change.error, t('common.error'))}
        </p>
      )}
      {notice && !change.isError && (
        <p className="saved" role="status">
          {notice}
        </p>
      )}
      {users.isPending ? (
        <Loading />
      ) : users.isError ? (
        <ErrorState error={users.error} onRetry={() => void users.refetch()} />
      ) : !page?.items.length ? (
        <p className="muted">{text.t('none')}</p>
      ) : (
        <>
          <table className="users-table">
            <thead>
              <tr>
                <th scope="col">{text.t('colUser')}</th>
                <th scope="col">{text.t('colRole')}</th>
                <th scope="col">{text.t('colStatus')}</th>
                <th scope="col">{text.t('colCreated')}</th>
                <th scope="col">{text.t('colActions')}</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((u) => {
                const self = u.id === me?.id;
                return (
                  <tr key={u.id} data-testid="user-row" data-email={u.email} data-disabled={u.disabled}>
                    <td data-label={text.t('colUser')}>
                      <div className="email">
                        {u.email}
                        {self && <span className="badge">{text.t('you')}</span>}
                      </div>
                      {u.display_name && <div className="muted small">{u.display_name}</div>}
                    </td>
                    <td data-label={text.t('colRole')}>
                      <span className="role-badge" data-role={u.role}>
                        {u.role === 'admin' ? text.t('roleAdmin') : text.t('roleUser')}
                      </span>
                    </td>
                    <td data-label={text.t('colStatus')}>
                      <span className="state-badge" data-disabled={u.disabled}>
                        {u.disabled ? text.t('disabled') : text.t('active')}
                      </span>
                    </td>
                    <td data-label={text.t('colCreated')}>
                      {new Date(u.created_at).toLocaleDateString(locale)}
                    </td>
                    <td data-label={text.t('colActions')}>
                      {self ? (
                        <span className="muted small">{text.t('selfHint')}</span>
                      ) : (
                        <div className="user-actions">
                          <button
                            type="button"
                            disabled={change.isPending}
                            onClick={() => act(u, { role: u.role === 'admin' ? 'user' : 'admin' })}
                          >
                            {u.role === 'admin' ? text.t('demote') : text.t('promote')}
                          </button>
                          <button
                            type="button"
                            className={u.disabled ? undefined : 'danger'}
                            disabled={change.isPending}
                            onClick={() => act(u, { disabled: !u.disabled })}
                          >
                            {u.disabled ? text.t('enable') : text.t('disable')}
                          </button>
                          <button type="button" disabled={u.disabled} onClick={() => setResetting(u)}>
                            {text.t('reset')}
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {page.total > USERS_PAGE && (
            <div className="users-pager">
              <button
                type="button"
                disabled={offset === 0}
                onClick={() => setQuery(search, offset - USERS_PAGE)}
              >
                {text.t('previous')}
              </button>
              <span className="muted">
                {text.t('page', {
                  from: offset + 1,
                  to: Math.min(offset + USERS_PAGE, page.total),
                  total: page.total,
                })}
              </span>
              <button
                type="button"
                disabled={offset + USERS_PAGE >= page.total}
                onClick={() => setQuery(search, offset + USERS_PAGE)}
              >
                {text.t('next')}
              </button>
            </div>
          )}
        </>
      )}
      <AddUserForm />
    </section>
  );
}
