import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import type { ArticlePage } from '../../../lib/api-types';

const DAY_MS = 86_400_000;

/** The next Monday 08:00 UTC strictly after `now` (the weekly report schedule). */
export function nextReportDue(now: Date): Date {
  const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 8));
  due.setUTCDate(due.getUTCDate() + ((1 - due.getUTCDay() + 7) % 7));
  if (due <= now) due.setUTCDate(due.getUTCDate() + 7);
  return due;
}

/**
 * Whether the topic has an article of the week the next report covers (the 7 days before it is
 * due, by publication date, else the date it was stored): a week without any gets no report.
 */
function useHasArticlesFor(topicId: string | undefined, due: Date) {
  const weekStart = new Date(due.getTime() - 8 * 3_600_000 - 7 * DAY_MS);
  return useQuery({
    queryKey: ['reports', 'week-has-articles', topicId, weekStart.toISOString()],
    enabled: !!topicId,
    queryFn: async ({ signal }) => {
      const page = await api<ArticlePage>('/articles', {
        signal,
        query: { topic_id: topicId, sort: 'published_at', order: 'desc', limit: 1 },
      });
      const a = page.items[0];
      return !!a && new Date(a.published_at ?? a.scraped_at) >= weekStart;
    },
  });
}

/**
 * No report yet for the topic: says when the next one is due, and only promises it when the week
 * it covers has articles (reports are written with or without a language model, but not from none).
 */
export function NoReport({ topicId }: { topicId?: string }) {
  const { t, locale } = useI18n();
  const due = nextReportDue(new Date());
  const hasArticles = useHasArticlesFor(topicId, due);
  const date = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(due);
  return (
    <div className="state state-empty" data-testid="no-report" data-due={due.toISOString()}>
      <p>{t('reports.none')}</p>
      {hasArticles.data === true && <p>{t('reports.nextDue', { date })}</p>}
      {hasArticles.data === false && (
        <p data-testid="no-report-week">{t('reports.nextIfArticles', { date })}</p>
      )}
    </div>
  );
}
