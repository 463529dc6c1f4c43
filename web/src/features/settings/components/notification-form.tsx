import { useState, type FormEvent } from 'react';
import { LOCALES, useI18n } from '../../../lib/i18n';
import { ErrorState, Loading, errorMessage } from '../../../lib/ui';
import {
  useNotificationSettings,
  useSaveNotificationSettings,
  type NotificationSettings,
} from '../api/settings';

export function NotificationForm() {
  const { t } = useI18n();
  const settings = useNotificationSettings();
  return (
    <section className="card" aria-labelledby="notif-title">
      <h2 id="notif-title">{t('settings.notifications')}</h2>
      {settings.isLoading ? (
        <Loading />
      ) : settings.isError || !settings.data ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <Form initial={settings.data} />
      )}
    </section>
  );
}

function Form({ initial }: { initial: NotificationSettings }) {
  const { t } = useI18n();
  const save = useSaveNotificationSettings();
  const [messengerOn, setMessengerOn] = useState(initial.messenger_enabled);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const chat = String(f.get('messenger_chat_id') ?? '').trim();
    save.mutate({
      email_enabled: f.get('email_enabled') === 'on',
      messenger_enabled: f.get('messenger_enabled') === 'on',
      messenger_chat_id: chat || null,
      locale: f.get('locale') === 'zh-TW' ? 'zh-TW' : 'en',
    });
  };

  return (
    <form className="form" onSubmit={submit}>
      <label className="checkbox">
        <input type="checkbox" name="email_enabled" defaultChecked={initial.email_enabled} />
        {t('settings.emailEnabled')}
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          name="messenger_enabled"
          checked={messengerOn}
          onChange={(e) => setMessengerOn(e.target.checked)}
        />
        {t('settings.messengerEnabled')}
      </label>
      <label>
        {t('settings.messengerChatId')}
        <input
          name="messenger_chat_id"
          defaultValue={initial.messenger_chat_id ?? ''}
          inputMode="numeric"
          maxLength={64}
          required={messengerOn}
        />
      </label>
      <label>
        {t('settings.locale')}
        <select name="locale" defaultValue={initial.locale}>
          {LOCALES.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </label>
      {save.isError && (
        <p className="form-error" role="alert">
          {errorMessage(save.error, t('common.error'))}
        </p>
      )}
      <button type="submit" disabled={save.isPending}>
        {t('common.save')}
      </button>
      {save.isSuccess && (
        <span role="status" className="saved">
          {t('common.saved')}
        </span>
      )}
    </form>
  );
}
