import { useState } from 'react';
import { Play } from 'lucide-react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useI18n, useT } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import { errorMessage } from '../../../lib/ui';
import { useStartJob, type RunKind } from '../api/jobs';
import { jobsMessages, type JobsKey } from '../messages';

/** One card per job: what it does and a start button; the run then shows under "Running now". */
export function StartJobs({ onStarted, busy }: { onStarted: (runId: string) => void; busy: Set<RunKind> }) {
  const { t } = useT(jobsMessages);
  return (
    <section className="admin-section" aria-labelledby="jobs-start">
      <h2 id="jobs-start">{t('jobs.start')}</h2>
      <div className="jobs">
        {(['scrape', 'metrics', 'reports'] as const).map((kind) => (
          <JobCard key={kind} kind={kind} busy={busy.has(kind)} onStarted={onStarted} />
        ))}
      </div>
    </section>
  );
}

function JobCard({
  kind,
  busy,
  onStarted,
}: {
  kind: RunKind;
  busy: boolean;
  onStarted: (runId: string) => void;
}) {
  const { t } = useT(jobsMessages);
  const common = useI18n().t;
  const start = useStartJob();
  const [topicId, setTopicId] = useState('');
  const title = t(`jobs.kind.${kind}` as JobsKey);
  const refused = start.error instanceof ApiError && start.error.status === 409;
  return (
    <section className="card job-card" data-testid={`job-${kind}`} aria-label={title}>
      <h3>{title}</h3>
      <p className="muted">{t(`jobs.describe.${kind}` as JobsKey)}</p>
      <div className="row">
        {kind === 'reports' && (
          <TopicSelect
            label={common('articles.topic')}
            allLabel={common('articles.allTopics')}
            value={topicId}
            onChange={(e) => setTopicId(e.target.value)}
          />
        )}
        <button
          type="button"
          className="primary"
          disabled={busy || start.isPending}
          onClick={() =>
            start.mutate({ kind, topicId: topicId || undefined }, { onSuccess: (r) => onStarted(r.run_id) })
          }
        >
          <Play size={16} aria-hidden="true" /> {busy ? t('jobs.status.running') : t('jobs.startButton')}
        </button>
      </div>
      {start.isSuccess && !busy && <p role="status">{t('jobs.started')}</p>}
      {start.error != null && (
        <p className="form-error" role="alert">
          {refused ? (
            t('jobs.busy')
          ) : (
            <WithAdminLinks text={errorMessage(start.error, common('common.error'))} />
          )}
        </p>
      )}
    </section>
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
