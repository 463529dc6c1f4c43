import { useState } from 'react';
import { ErrorState, Loading } from '../../../lib/ui';
import { HISTORY_PAGE, useRunHistory, type RunKind } from '../api/jobs';
import { useT } from '../../../lib/i18n';
import { jobsMessages, type JobsKey } from '../messages';
import {
  FAILURE_KEYS,
  KindName,
  StatusBadge,
  formatTime,
  runMs,
  useDuration,
  useNow,
  useSummaryFields,
} from './run-format';

/** Every run, newest first: status, duration, what it did and how many items failed. */
export function RunHistory({ onOpen, selected }: { onOpen: (id: string) => void; selected: string | null }) {
  const { t, locale } = useT(jobsMessages);
  const [kind, setKind] = useState<RunKind | ''>('');
  const [offset, setOffset] = useState(0);
  const history = useRunHistory(kind, offset);
  const duration = useDuration();
  const fields = useSummaryFields();
  const page = history.data;
  const now = useNow(!!page?.items.some((r) => r.status === 'running' || r.status === 'queued'));
  return (
    <section className="admin-section" aria-labelledby="jobs-history" data-testid="run-history">
      <div className="history-head">
        <h2 id="jobs-history">{t('jobs.history')}</h2>
        <label>
          {t('jobs.filter')}{' '}
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as RunKind | '');
              setOffset(0);
            }}
          >
            <option value="">{t('jobs.allKinds')}</option>
            {(['scrape', 'metrics', 'reports'] as const).map((k) => (
              <option key={k} value={k}>
                {t(`jobs.kind.${k}` as JobsKey)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {history.isPending ? (
        <Loading />
      ) : history.isError ? (
        <ErrorState error={history.error} onRetry={() => void history.refetch()} />
      ) : !page?.items.length ? (
        <p className="muted">{t('jobs.noRuns')}</p>
      ) : (
        <>
          <table className="runs-table">
            <thead>
              <tr>
                <th scope="col">{t('jobs.col.job')}</th>
                <th scope="col">{t('jobs.col.status')}</th>
                <th scope="col">{t('jobs.col.started')}</th>
                <th scope="col">{t('jobs.col.duration')}</th>
                <th scope="col">{t('jobs.col.counts')}</th>
                <th scope="col">{t('jobs.col.problems')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('jobs.open')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((run) => (
                <tr
                  key={run.id}
                  data-testid="run-row"
                  data-kind={run.kind}
                  data-run-id={run.id}
                  aria-selected={run.id === selected}
                >
                  <td data-label={t('jobs.col.job')}>
                    <KindName kind={run.kind} />
                    <div className="muted small">{t(`jobs.trigger.${run.trigger}` as JobsKey)}</div>
                  </td>
                  <td data-label={t('jobs.col.status')}>
                    <StatusBadge status={run.status} />
                  </td>
                  <td data-label={t('jobs.col.started')}>{formatTime(run.started_at, locale)}</td>
                  <td data-label={t('jobs.col.duration')}>{duration(runMs(run, now))}</td>
                  <td data-label={t('jobs.col.counts')} className="run-counts">
                    {fields(run.summary, run.kind)
                      // what matters leads: new items first, failures only when there are any
                      .filter((f) => f.failure || !FAILURE_KEYS.has(f.key))
                      .slice(0, 4)
                      .map((f, i) => (
                        <span key={f.key} className={f.failure ? 'run-count-failed' : undefined}>
                          {i > 0 && ' · '}
                          {f.label}: {f.value}
                        </span>
                      ))}
                  </td>
                  <td data-label={t('jobs.col.problems')}>
                    {run.error_count ? t('jobs.problems', { n: run.error_count }) : t('jobs.noProblems')}
                  </td>
                  <td>
                    <button type="button" className="link-button" onClick={() => onOpen(run.id)}>
                      {t('jobs.open')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="pager">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(offset - HISTORY_PAGE)}>
              {t('jobs.previous')}
            </button>
            <span>
              {t('jobs.page', {
                from: offset + 1,
                to: offset + page.items.length,
                total: page.total,
              })}
            </span>
            <button
              type="button"
              disabled={offset + HISTORY_PAGE >= page.total}
              onClick={() => setOffset(offset + HISTORY_PAGE)}
            >
              {t('jobs.next')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
