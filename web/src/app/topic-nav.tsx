import { NavLink, useLocation, useSearchParams } from 'react-router';
import { useI18n } from '../lib/i18n';
import { useTopics } from '../lib/topics';
import { useUnreadCounts } from '../lib/unread';
import { formatNumber } from '../lib/format';

/** The topics as a second navigation row on the reader pages, with the reader's unread counts. */
export function TopicNav({ signedIn }: { signedIn: boolean }) {
  const { t, locale } = useI18n();
  const topics = useTopics();
  const unread = useUnreadCounts(signedIn);
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const current = pathname === '/articles' ? params.get('topic') : null;
  const counts = new Map((unread.data?.items ?? []).map((c) => [c.topic_id, c.unread]));
  if (!topics.data || topics.data.length === 0) return null;
  const badge = (n: number | undefined, testId: string) =>
    n ? (
      <span className="badge unread-count" data-testid={testId} title={t('nav.unread', { count: n })}>
        {formatNumber(n, locale)}
        <span className="visually-hidden"> {t('articles.unread')}</span>
      </span>
    ) : null;
  return (
    <nav className="topic-nav" aria-label={t('nav.topics')} data-testid="topic-nav">
      <NavLink to="/articles" end className={() => (pathname === '/articles' && !current ? 'active' : '')}>
        {t('articles.allTopics')}
        {signedIn && badge(unread.data?.total, 'unread-total')}
      </NavLink>
      {topics.data.map((topic) => (
        <NavLink
          key={topic.id}
          to={`/articles?topic=${encodeURIComponent(topic.id)}`}
          className={() => (current === topic.id ? 'active' : '')}
          data-topic-id={topic.id}
        >
          {topic.name}
          {signedIn && badge(counts.get(topic.id), `unread-${topic.id}`)}
        </NavLink>
      ))}
    </nav>
  );
}
