import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import type { ArticlePage, ReportSchedule } from '../../../lib/api-types';

const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of the week before the one `due` falls in: the week a report due then covers. */
function weekCoveredBy(due: Date): Date {
  const monday = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth(), due.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return new Date(monday.getTime() - 7 * DAY_MS);
}

/** When the server's schedule writes the next weekly report (null: not on a schedule). */
function useReportSchedule() {
  return useQuery({
    queryKey: ['reports', 'schedule'],
    queryFn: ({ signal }) => api<ReportSchedule>('/weekly-reports/schedule', { signal }),
    staleTime: 60_000,
  });
}

/**
 * Whether the topic has an article of the week the next report covers (the last full week before
 * it is due, by publication date, else the date it was stored): a week without any gets no report.
 */
function useHasArticlesFor(topicId: string | undefined, due: Date | null) {
  const weekStart = due && weekCoveredBy(due);
  return useQuery({
    queryKey: ['reports', 'week-has-articles', topicId, weekStart?.toISOString()],
    enabled: !!topicId && !!weekStart,
    queryFn: async ({ signal }) => {
      const page = await api<ArticlePage>('/articles', {
        signal,
        query: { topic_id: topicId, sort: 'published_at', order: 'desc', limit: 1 },
      });
      const a = page.items[0];
      return !!a && new Date(a.published_at ?? a.scraped_at) >= weekStart!;
    },
  });
}

/**
 * No report yet for the topic: says when the server's schedule writes the next one, and only
 * promises it when the week it covers has articles (reports are written with or without a language
 * model, but not from none); without a schedule, that reports are written on demand.
 */
export function NoReport({ topicId }: { topicId?: string }) {
  const { t, locale } = useI18n();
  const schedule = useReportSchedule();
  const due = schedule.data?.next_due_at ? new Date(schedule.data.next_due_at) : null;
  const hasArticles = useHasArticlesFor(topicId, due);
  const date =
    due &&
    new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(due);
  return (
    <div className="state state-empty" data-testid="no-report" data-due={schedule.data?.next_due_at ?? ''}>
      <p>{t('reports.none')}</p>
      {schedule.data && !date && <p data-testid="no-report-schedule">{t('reports.notScheduled')}</p>}
      {date && hasArticles.data === true && (
        <p data-testid="no-report-schedule">{t('reports.nextDue', { date })}</p>
      )}
      {date && hasArticles.data === false && (
        <p data-testid="no-report-week">{t('reports.nextIfArticles', { date })}</p>
      )}
    </div>
  );
}
