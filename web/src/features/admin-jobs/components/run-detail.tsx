import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { X } from 'lucide-react';
import { useTopics } from '../../../lib/topics';
import { ErrorState, IconButton, Loading } from '../../../lib/ui';
import { isActive, useRun, useSourceNames, type Run, type RunItemError, type RunLlmUsage } from '../api/jobs';
import { useT } from '../../../lib/i18n';
import { jobsMessages, type JobsKey } from '../messages';
import {
  KindName,
  ProgressBar,
  StatusBadge,
  formatTime,
  runMs,
  useDuration,
  useNow,
  useSummaryFields,
} from './run-format';

/** One run: when and how it ran, its summary in words, and every failed item named. */
export function RunDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useT(jobsMessages);
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
  const { t, locale } = useT(jobsMessages);
  const duration = useDuration();
  const fields = useSummaryFields()(run.summary, run.kind);
  const now = useNow(!run.finished_at);
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
          : t('jobs.stillRunning', { duration: duration(runMs(run, now)) })}
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
              <div key={f.key} className={f.failure ? 'run-count-failed' : undefined}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      {run.llm && run.llm.calls > 0 && <RunModelUsage llm={run.llm} />}
      <h3>{t('jobs.errors')}</h3>
      {run.error_count === 0 ? (
        !isActive(run.status) && <p className="muted">{t('jobs.noErrors')}</p>
      ) : (
        <ItemErrors run={run} />
      )}
    </>
  );
}

/** The run's calls to the language model and their tokens, per purpose. */
function RunModelUsage({ llm }: { llm: RunLlmUsage }) {
  const { t, tx, locale } = useT(jobsMessages);
  const num = (v: number) => v.toLocaleString(locale);
  const cols = {
    purpose: t('jobs.llm.purpose'),
    calls: t('jobs.llm.calls'),
    input: t('jobs.llm.input'),
    output: t('jobs.llm.output'),
  };
  return (
    <section className="run-llm" aria-labelledby="run-llm-title" data-testid="run-llm">
      <h3 id="run-llm-title">{t('jobs.llm')}</h3>
      <p className="muted">
        {t('jobs.llm.sum', {
          count: llm.calls,
          input: num(llm.prompt_tokens),
          output: num(llm.completion_tokens),
        })}
      </p>
      {llm.by_purpose.length > 0 && (
        <table className="run-llm-table" aria-labelledby="run-llm-title">
          <thead>
            <tr>
              <th scope="col">{cols.purpose}</th>
              <th scope="col">{cols.calls}</th>
              <th scope="col">{cols.input}</th>
              <th scope="col">{cols.output}</th>
            </tr>
          </thead>
          <tbody>
            {llm.by_purpose.map((p) => (
              <tr key={p.purpose}>
                <th scope="row">{tx(`jobs.purpose.${p.purpose}`, p.purpose)}</th>
                <td data-label={cols.calls}>{num(p.calls)}</td>
                <td data-label={cols.input}>{num(p.prompt_tokens)}</td>
                <td data-label={cols.output}>{num(p.completion_tokens)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ItemErrors({ run }: { run: Run }) {
  const { t } = useT(jobsMessages);
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
              {what(e) ??
                (e.article_title ? (
                  <>
                    {t('jobs.article')} <Link to={`/articles/${e.article_id}`}>{e.article_title}</Link>
                  </>
                ) : (
                  <>
                    {t('jobs.article')} ({t('jobs.articleGone')})
                  </>
                ))}
            </strong>
            <span className="run-error-message">{e.message}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
