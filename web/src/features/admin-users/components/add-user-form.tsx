import { useState, type FormEvent } from 'react';
import { clearIfUnchanged, sentForm } from '../../../lib/forms';
import { errorMessage } from '../../../lib/ui';
import { useI18n, useT } from '../../../lib/i18n';
import { useAddUser } from '../api/users';
import { usersMessages } from '../messages';

/** An account made by the admin (the way in when REGISTRATION=closed). */
export function AddUserForm() {
  const text = useT(usersMessages);
  const { t } = useI18n();
  const add = useAddUser();
  const [done, setDone] = useState<string | null>(null);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const sent = sentForm(formEl);
    setDone(null);
    const name = String(form.get('display_name') ?? '').trim();
    add.mutate(
      {
        email: String(form.get('email')),
        password: String(form.get('password')),
        role: form.get('admin') === 'on' ? 'admin' : 'user',
        ...(name ? { display_name: name } : {}),
      },
      {
        onSuccess: ({ user }) => {
          clearIfUnchanged(formEl, sent);
          setDone(text.t('added', { email: user.email }));
        },
      },
    );
  };

  return (
    <details className="card add-user">
      <summary>{text.t('addTitle')}</summary>
      <form className="form" onSubmit={submit}>
        <div className="row">
          <label>
            {text.t('addEmail')}
            <input name="email" type="email" autoComplete="off" required />
          </label>
          <label>
            {text.t('addName')}
            <input name="display_name" maxLength={100} autoComplete="off" />
          </label>
          <label>
            {text.t('addPassword')}
            <input name="password" type="password" autoComplete="new-password" minLength={10} required />
          </label>
          <label className="checkbox">
            <input name="admin" type="checkbox" /> {text.t('addAdmin')}
          </label>
          <button type="submit" disabled={add.isPending}>
            {text.t('addSubmit')}
          </button>
        </div>
        {add.isError && (
          <p className="form-error" role="alert">
            {errorMessage(add.error, t('common.error'))}
          </p>
        )}
        {done && (
          <p className="saved" role="status">
            {done}
          </p>
        )}
      </form>
    </details>
  );
}
