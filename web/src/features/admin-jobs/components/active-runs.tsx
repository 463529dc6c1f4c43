import type { RunSummary } from '../api/jobs';
import { useT } from '../../../lib/i18n';
import { jobsMessages, type JobsKey } from '../messages';
import { KindName, ProgressBar, formatTime, runMs, useDuration, useNow } from './run-format';

/** The runs under way with their live progress (polled). */
export function ActiveRuns({ runs, onOpen }: { runs: RunSummary[]; onOpen: (id: string) => void }) {
  const { t, locale } = useT(jobsMessages);
  const duration = useDuration();
  const now = useNow(runs.length > 0);
  return (
    <section className="admin-section" aria-labelledby="jobs-active" data-testid="active-runs">
      <h2 id="jobs-active">{t('jobs.active')}</h2>
      {runs.length === 0 ? (
        <p className="muted">{t('jobs.noneActive')}</p>
      ) : (
        <ul className="active-runs">
          {runs.map((run) => (
            <li key={run.id} className="card active-run" data-testid="active-run" data-kind={run.kind}>
              <div className="active-run-head">
                <strong>
                  <KindName kind={run.kind} />
                </strong>
                <span className="muted">
                  {t('jobs.startedBy', {
                    when: formatTime(run.started_at, locale),
                    trigger: t(`jobs.trigger.${run.trigger}` as JobsKey),
                  })}{' '}
                  · <span data-testid="elapsed">{duration(runMs(run, now))}</span>
                </span>
              </div>
              <ProgressBar run={run} />
              {run.error_count > 0 && (
                <p className="run-problems">{t('jobs.problems', { n: run.error_count })}</p>
              )}
              <button type="button" className="link-button" onClick={() => onOpen(run.id)}>
                {t('jobs.open')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
