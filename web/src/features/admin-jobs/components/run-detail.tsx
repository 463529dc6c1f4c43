import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { X } from 'lucide-react';
import { useTopics } from '../../../lib/topics';
import { ErrorState, IconButton, Loading } from '../../../lib/ui';
import { isActive, useRun, useSourceNames, type Run, type RunItemError } from '../api/jobs';
import { useJobsText, type JobsKey } from '../messages';
import {
  KindName,
  ProgressBar,
  StatusBadge,
  formatTime,
  runMs,
  useDuration,
  useSummaryFields,
} from './run-format';

/** One run: when and how it ran, its summary in words, and every failed item named. */
export function RunDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useJobsText();
  const run = useRun(id);
  const ref = useRef<HTMLElement>(null);
  // opened from a history row further down (on a phone, screens away): bring it into view
  useEffect(() => ref.current?.scrollIntoView({ block: 'start' }), [id]);
  return (
    <section
      ref={ref}
      className="card run-detail"
      aria-labelledby="run-detail-title"
      data-testid="run-detail"
    >
      <div className="run-detail-head">
        <h2 id="run-detail-title">{t('jobs.detail')}</h2>
        <IconButton label={t('jobs.close')} onClick={onClose}>
          <X size={18} aria-hidden="true" />
        </IconButton>
      </div>
      {run.isPending ? (
        <Loading />
      ) : run.isError ? (
        <ErrorState error={run.error} onRetry={() => void run.refetch()} />
      ) : (
        <RunBody run={run.data} />
      )}
    </section>
  );
}

function RunBody({ run }: { run: Run }) {
  const { t, locale } = useJobsText();
  const duration = useDuration();
  const fields = useSummaryFields()(run.summary);
  return (
    <>
      <p className="run-detail-title">
        <strong>
          <KindName kind={run.kind} />
        </strong>{' '}
        <StatusBadge status={run.status} />
      </p>
      <p className="muted">
        {t('jobs.startedBy', {
          when: formatTime(run.started_at, locale),
          trigger: t(`jobs.trigger.${run.trigger}` as JobsKey),
        })}
        <br />
        {run.finished_at
          ? t('jobs.finished', { when: formatTime(run.finished_at, locale), duration: duration(runMs(run)) })
          : t('jobs.stillRunning', { duration: duration(runMs(run)) })}
      </p>
      {isActive(run.status) && <ProgressBar run={run} />}
      {run.error && (
        <>
          <h3>{t('jobs.runError')}</h3>
          <p className="form-error">{run.error}</p>
        </>
      )}
      {fields.length > 0 && (
        <>
          <h3>{t('jobs.summary')}</h3>
          <dl className="run-summary">
            {fields.map((f) => (
              <div key={f.label}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      <h3>{t('jobs.errors')}</h3>
      {run.error_count === 0 ? (
        !isActive(run.status) && <p className="muted">{t('jobs.noErrors')}</p>
      ) : (
        <ItemErrors run={run} />
      )}
    </>
  );
}

function ItemErrors({ run }: { run: Run }) {
  const { t } = useJobsText();
  const sources = useSourceNames(run.errors.some((e) => e.source_id));
  const topics = useTopics();
  const topicName = (id: string) => topics.data?.find((x) => x.id === id)?.name ?? t('jobs.unknownTopic');
  const sourceName = (id: string) => sources.data?.get(id) ?? t('jobs.unknownSource');
  const what = (e: RunItemError) => {
    if (e.source_id) return t('jobs.source', { name: sourceName(e.source_id) });
    if (e.topic_id && !e.article_id) return t('jobs.topic', { name: topicName(e.topic_id) });
    return null;
  };
  return (
    <>
      {run.error_count > run.errors.length && (
        <p className="muted">{t('jobs.errorsShown', { shown: run.errors.length, total: run.error_count })}</p>
      )}
      <ul className="run-errors" data-testid="run-errors">
        {run.errors.map((e, i) => (
          <li key={i} data-testid="run-error">
            <strong>
              {what(e) ?? (
                <>
                  {t('jobs.article')} (<Link to={`/articles/${e.article_id}`}>{t('jobs.openArticle')}</Link>)
                </>
              )}
            </strong>
            <span className="run-error-message">{e.message}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
