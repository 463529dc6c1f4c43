import { useState, type ReactNode } from 'react';
import { Play } from 'lucide-react';
import { Link } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import { errorMessage } from '../../../lib/ui';
import { useRefreshMetrics, useScraperRun, useStartScrape, useWeeklyReports } from '../api/jobs';

export default function JobsAdminPage() {
  const { t } = useI18n();
  return (
    <section>
      <h1>{t('admin.jobs.title')}</h1>
      <div className="jobs">
        <ScrapeJob />
        <MetricsJob />
        <ReportsJob />
      </div>
    </section>
  );
}

function JobCard({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="card" data-testid={testId} aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function JobError({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  return (
    <p className="form-error" role="alert">
      <WithAdminLinks text={errorMessage(error, t('common.error'))} />
    </p>
  );
}

/** An error that names an admin page (e.g. "add one on the admin page /admin/catalog") links to it. */
function WithAdminLinks({ text }: { text: string }) {
  const parts = text.split(/(\/admin\/[a-z][a-z-]*)/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Link key={i} to={part}>
            {part}
          </Link>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Result({ value, error }: { value: unknown; error: unknown }) {
  const { t } = useI18n();
  if (error) return <JobError error={error} />;
  if (value === undefined) return null;
  return (
    <output className="job-result" aria-label={t('admin.jobs.result')}>
      {JSON.stringify(value, null, 2)}
    </output>
  );
}

function ScrapeJob() {
  const { t } = useI18n();
  const start = useStartScrape();
  const run = useScraperRun(start.data?.run_id);
  const running = start.isPending || run.data?.status === 'running';
  return (
    <JobCard title={t('admin.jobs.scrape')} testId="job-scrape">
      <button type="button" className="primary" disabled={running} onClick={() => start.mutate()}>
        <Play size={16} aria-hidden="true" /> {running ? t('admin.jobs.running') : t('admin.jobs.scrape')}
      </button>
      {run.data && <p role="status">{t('admin.jobs.status', { status: run.data.status })}</p>}
      <Result value={run.data?.counts} error={start.error ?? run.error} />
    </JobCard>
  );
}

function MetricsJob() {
  const { t } = useI18n();
  const job = useRefreshMetrics();
  const summary = job.data;
  return (
    <JobCard title={t('admin.jobs.refreshMetrics')} testId="job-metrics">
      <button type="button" className="primary" disabled={job.isPending} onClick={() => job.mutate()}>
        <Play size={16} aria-hidden="true" />{' '}
        {job.isPending ? t('admin.jobs.running') : t('admin.jobs.refreshMetrics')}
      </button>
      <JobError error={job.error} />
      {summary && !job.isPending && (
        <output className="job-summary" aria-label={t('admin.jobs.result')}>
          <span>
            {t('admin.jobs.refreshSummary', {
              articles: summary.articles,
              updated: summary.updated,
              unchanged: summary.unchanged,
              failed: summary.failed,
            })}
          </span>
          {Object.keys(summary.by_source).length > 0 && (
            <span>
              {' '}
              {t('admin.jobs.bySource', {
                sources: Object.entries(summary.by_source)
                  // named sources in alphabetical order, "no value" last
                  .sort(([a], [b]) => Number(a === 'none') - Number(b === 'none') || a.localeCompare(b))
                  .map(([source, n]) => `${source === 'none' ? t('admin.jobs.noValue') : source}: ${n}`)
                  .join(', '),
              })}
            </span>
          )}
        </output>
      )}
    </JobCard>
  );
}

function ReportsJob() {
  const { t } = useI18n();
  const job = useWeeklyReports();
  const [topicId, setTopicId] = useState('');
  return (
    <JobCard title={t('admin.jobs.weeklyReports')} testId="job-reports">
      <div className="row">
        <TopicSelect
          label={t('articles.topic')}
          allLabel={t('articles.allTopics')}
          value={topicId}
          onChange={(e) => setTopicId(e.target.value)}
        />
        <button
          type="button"
          className="primary"
          disabled={job.isPending}
          onClick={() => job.mutate(topicId ? { topic_id: topicId } : {})}
        >
          <Play size={16} aria-hidden="true" />{' '}
          {job.isPending ? t('admin.jobs.running') : t('admin.jobs.weeklyReports')}
        </button>
      </div>
      <Result value={job.data} error={job.error} />
    </JobCard>
  );
}
