import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Rss } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { formatDate } from '../../../lib/format';
import { TopicSelect } from '../../../lib/topic-select';
import { useTopics } from '../../../lib/topics';
import { Empty, ErrorState, Loading } from '../../../lib/ui';
import { useReport, useReportArchive } from '../api/reports';
import { ReportView } from './report-view';
import { NoReport } from './no-report';

export default function ReportsPage() {
  const { t, locale } = useI18n();
  const [params, setParams] = useSearchParams();
  const topics = useTopics();
  const topicId = params.get('topic') ?? topics.data?.[0]?.id;
  const week = params.get('week') ?? undefined;
  const report = useReport(topicId, week, locale);
  const archive = useReportArchive(topicId, locale);
  const topic = topics.data?.find((x) => x.id === topicId);
  const feedHref = topic ? `/feeds/reports/${encodeURIComponent(topic.id)}.atom` : undefined;

  useEffect(() => {
    if (!params.get('topic') && topicId) setParams({ topic: topicId }, { replace: true });
  }, [params, topicId, setParams]);

  return (
    <section className="reports-page">
      {feedHref && topic && (
        <link
          rel="alternate"
          type="application/atom+xml"
          title={t('reports.feedTitle', { topic: topic.name })}
          href={feedHref}
        />
      )}
      <div className="page-head">
        <h1>{t('reports.title')}</h1>
        {feedHref && (
          <a className="feed-link" href={feedHref} data-testid="report-feed">
            <Rss size={16} aria-hidden="true" /> {t('reports.feed')}
          </a>
        )}
      </div>
      <TopicSelect
        label={t('reports.chooseTopic')}
        value={topicId ?? ''}
        onChange={(e) => setParams({ topic: e.target.value })}
        testId="report-topic"
      />
      <div className="reports-layout">
        <div>
          {!week && <h2 className="section-title">{t('reports.latest')}</h2>}
          {topics.isLoading || report.isLoading ? (
            <Loading />
          ) : report.isError ? (
            <ErrorState error={report.error} onRetry={() => void report.refetch()} />
          ) : report.data ? (
            <ReportView report={report.data} />
          ) : topics.data && topics.data.length === 0 ? (
            <Empty>{t('reports.noTopics')}</Empty>
          ) : (
            <NoReport topicId={topicId} />
          )}
        </div>
        <aside aria-labelledby="archive-title" className="archive">
          <h2 id="archive-title">{t('reports.archive')}</h2>
          {archive.isLoading ? (
            <Loading />
          ) : archive.isError ? (
            <ErrorState error={archive.error} onRetry={() => void archive.refetch()} />
          ) : archive.data && archive.data.items.length === 0 ? (
            <Empty>{t('reports.archiveEmpty')}</Empty>
          ) : (
            <ul>
              {archive.data?.items.map((r) => (
                <li key={r.id}>
                  <Link
                    to={`/reports?topic=${r.topic_id}&week=${r.week_start_date}`}
                    aria-current={r.week_start_date === week ? 'page' : undefined}
                  >
                    {t('reports.week', { date: formatDate(r.week_start_date, locale) })}: {r.title}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>
    </section>
  );
}
