import { useState, type FormEvent } from 'react';
import { LOCALES, useI18n, useT } from '../../../lib/i18n';
import { ApiError } from '../../../lib/api-client';
import { ErrorState, Loading, errorMessage } from '../../../lib/ui';
import {
  useNotificationSettings,
  useSaveNotificationSettings,
  type NotificationSettingsView,
} from '../api/settings';
import { settingsMessages } from '../messages';

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

function Form({ initial }: { initial: NotificationSettingsView }) {
  const { t } = useI18n();
  const text = useT(settingsMessages);
  const save = useSaveNotificationSettings();
  const [messengerOn, setMessengerOn] = useState(initial.messenger_enabled);
  const { email: canEmail, telegram: canTelegram } = initial.delivery;
  const chatIdError =
    save.error instanceof ApiError && save.error.code === 'messenger_chat_id_invalid'
      ? text.t('chatIdInvalid')
      : null;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const chat = String(f.get('messenger_chat_id') ?? '').trim();
    save.mutate({
      // a switch the server cannot serve is sent off, whatever it showed
      email_enabled: canEmail && f.get('email_enabled') === 'on',
      messenger_enabled: f.get('messenger_enabled') === 'on',
      messenger_chat_id: chat || null,
      locale: f.get('locale') === 'zh-TW' ? 'zh-TW' : 'en',
      reader_summary_block: f.get('reader_summary_block') === 'on',
    });
  };

  return (
    <form className="form" onSubmit={submit} data-testid="notification-form">
      <label className="checkbox">
        <input
          type="checkbox"
          name="email_enabled"
          defaultChecked={canEmail && initial.email_enabled}
          disabled={!canEmail}
          aria-describedby={canEmail ? undefined : 'email-unavailable'}
        />
        {t('settings.emailEnabled')}
      </label>
      {!canEmail && (
        <p id="email-unavailable" className="hint muted" data-testid="email-unavailable">
          {text.t('emailUnavailable')}
        </p>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          name="messenger_enabled"
          checked={messengerOn}
          onChange={(e) => setMessengerOn(e.target.checked)}
          aria-describedby={canTelegram ? undefined : 'telegram-unavailable'}
        />
        {t('settings.messengerEnabled')}
      </label>
      {!canTelegram && (
        <p id="telegram-unavailable" className="hint muted" data-testid="telegram-unavailable">
          {text.t('telegramUnavailable')}
        </p>
      )}
      <label>
        {t('settings.messengerChatId')}
        <input
          name="messenger_chat_id"
          defaultValue={initial.messenger_chat_id ?? ''}
          maxLength={64}
          required={messengerOn}
          aria-invalid={chatIdError ? true : undefined}
          aria-describedby="chat-id-help"
        />
      </label>
      <p id="chat-id-help" className="hint muted">
        {text.t('chatIdHelp')}
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          name="reader_summary_block"
          defaultChecked={initial.reader_summary_block}
          aria-describedby="reader-summary-block-help"
        />
        {text.t('readerSummaryBlock')}
      </label>
      <p id="reader-summary-block-help" className="hint muted">
        {text.t('readerSummaryBlockHint')}
      </p>
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
          {chatIdError ?? errorMessage(save.error, t('common.error'))}
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
