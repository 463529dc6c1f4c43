import { useI18n } from '../../../lib/i18n';
import { useTopics } from '../../../lib/topics';
import { ErrorState, Loading } from '../../../lib/ui';
import { useSubscriptions, useToggleSubscription } from '../api/settings';
import { NotificationForm } from './notification-form';
import { AccountCard } from './account-card';
import { TokensCard } from './tokens-card';
import '../account.css';

export default function SettingsPage() {
  const { t } = useI18n();
  return (
    <section className="settings-page">
      <h1>{t('settings.title')}</h1>
      <Subscriptions />
      <NotificationForm />
      <AccountCard />
      <TokensCard />
    </section>
  );
}

function Subscriptions() {
  const { t } = useI18n();
  const topics = useTopics();
  const subs = useSubscriptions();
  const toggle = useToggleSubscription();
  const subscribed = new Set(subs.data?.subscriptions.map((s) => s.topic_id));

  return (
    <section className="card" aria-labelledby="subs-title">
      <h2 id="subs-title">{t('settings.subscriptions')}</h2>
      {topics.isLoading || subs.isLoading ? (
        <Loading />
      ) : topics.isError || subs.isError ? (
        <ErrorState error={topics.error ?? subs.error} onRetry={() => void subs.refetch()} />
      ) : (
        <ul className="subscription-list">
          {topics.data?.map((topic) => {
            const on = subscribed.has(topic.id);
            return (
              <li key={topic.id} data-topic-id={topic.id}>
                <span>
                  {topic.name}
                  {on && <span className="badge">{t('settings.subscribed')}</span>}
                </span>
                <button
                  type="button"
                  aria-pressed={on}
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate({ topicId: topic.id, subscribe: !on })}
                >
                  {on ? t('settings.unsubscribe') : t('settings.subscribe')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
