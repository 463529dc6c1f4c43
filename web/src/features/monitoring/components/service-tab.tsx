import { useEffect, useMemo, useState } from 'react';
import { errorMessage } from '../../../lib/ui';
import { getServiceStats, type ServiceStats } from '../api/monitor';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';
import { UChart } from './u-chart';
import { Card } from './service-card';
import { ModelUsage } from './model-usage';

export const SERVICE_DAYS = [7, 30, 90] as const;
const DAY = 86_400;

type Loaded =
  { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; stats: ServiceStats };

/**
 * The built-in Service tab: runs per day, failures per stage, articles per source, citation
 * coverage, the language model's calls and tokens and the last run of each source, from GET /admin/service-stats (no monitoring store).
 */
export function ServiceTab({ days, intervalSeconds }: { days: number; intervalSeconds: number }) {
  const { t, tx } = useT(monMessages);
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const ctrl = new AbortController();
    getServiceStats(days, ctrl.signal).then(
      (stats) => setState({ status: 'ok', stats }),
      (e: unknown) => {
        if ((e as Error).name !== 'AbortError')
          setState({ status: 'error', message: errorMessage(e, t('mon.loadFailed')) });
      },
    );
    return () => ctrl.abort();
  }, [days, tick, t]);
  useEffect(() => {
    if (intervalSeconds <= 0) return;
    const timer = setInterval(() => setTick((n) => n + 1), intervalSeconds * 1000);
    return () => clearInterval(timer);
  }, [intervalSeconds]);

  if (state.status === 'loading')
    return (
      <p className="state state-loading" role="status">
        {t('mon.loading')}
      </p>
    );
  if (state.status === 'error')
    return (
      <p className="state state-error" role="alert">
        {state.message}
      </p>
    );
  const s = state.stats;
  return (
    <>
      <p className="mon-muted mon-span-all">{t('mon.svc.note')}</p>
      <RunsPerDay stats={s} />
      <Coverage stats={s} />
      <BarList
        id="svc-failures"
        title={t('mon.svc.failuresPerStage')}
        label={t('mon.svc.stage')}
        value={t('mon.svc.count')}
        rows={s.failures_per_stage.map((f) => ({
          name: tx(`mon.stage.${f.stage}`, f.stage),
          count: f.count,
        }))}
        tone="error"
      />
      <BarList
        id="svc-sources"
        title={t('mon.svc.articlesPerSource')}
        label={t('mon.svc.source')}
        value={t('mon.svc.articles')}
        rows={s.articles_per_source.map((a) => ({ name: a.source, count: a.count }))}
      />
      <ModelUsage stats={s} />
      <LastRuns stats={s} />
    </>
  );
}

function RunsPerDay({ stats }: { stats: ServiceStats }) {
  const { t } = useT(monMessages);
  const start = Date.parse(stats.since) / 1000;
  const { labels, data } = useMemo(() => {
    // one point per day, in the middle of its day; "running" only when a run is in progress
    const days = stats.runs_per_day;
    const xs = days.map((r) => Date.parse(`${r.day}T12:00:00Z`) / 1000);
    // every final status is its own series: a run that completed with problems is not a clean one
    const cols: [string, number[]][] = [
      [t('mon.svc.completed'), days.map((r) => r.completed)],
      [t('mon.svc.completedWithErrors'), days.map((r) => r.completed_with_errors)],
      [t('mon.svc.failed'), days.map((r) => r.failed)],
    ];
    if (days.some((r) => r.interrupted > 0))
      cols.push([t('mon.svc.interrupted'), days.map((r) => r.interrupted)]);
    if (days.some((r) => r.running > 0)) cols.push([t('mon.svc.running'), days.map((r) => r.running)]);
    return { labels: cols.map(([l]) => l), data: [xs, ...cols.map(([, c]) => c)] };
  }, [stats, t]);
  return (
    <Card id="svc-runs" title={t('mon.svc.runsPerDay')}>
      <UChart
        labels={labels}
        data={data}
        xMin={start}
        xMax={start + stats.days * DAY}
        points
        ariaLabel={t('mon.chart', { n: labels.length })}
      />
    </Card>
  );
}

function Coverage({ stats }: { stats: ServiceStats }) {
  const { t, locale } = useT(monMessages);
  const c = stats.citation_coverage;
  return (
    <Card id="svc-coverage" title={t('mon.svc.citationCoverage')}>
      <p className="mon-stat">
        {c.share === null
          ? '—'
          : c.share.toLocaleString(locale, { style: 'percent', maximumFractionDigits: 1 })}
      </p>
      <meter
        className="mon-meter"
        min={0}
        max={1}
        value={c.share ?? 0}
        aria-label={t('mon.svc.citationCoverage')}
      />
      <p className="mon-muted">{t('mon.svc.coverageOf', { with: c.with_citation, total: c.articles })}</p>
    </Card>
  );
}

/** Horizontal bars with their names and values; hovering a bar shows both (title tooltip). */
function BarList({
  id,
  title,
  label,
  value,
  rows,
  tone,
}: {
  id: string;
  title: string;
  label: string;
  value: string;
  rows: { name: string; count: number }[];
  tone?: 'error';
}) {
  const { t, locale } = useT(monMessages);
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <Card id={id} title={title}>
      {rows.length ? (
        <table className="mon-bars" aria-label={title}>
          <thead>
            <tr>
              <th scope="col">{label}</th>
              <th scope="col">{value}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name} title={`${r.name}: ${r.count.toLocaleString(locale)}`}>
                <th scope="row" className="mon-bar-name">
                  {r.name}
                </th>
                <td>
                  <div className="mon-bar-cell">
                    <span className="mon-bar-track">
                      <span
                        className={`mon-bar${tone === 'error' ? ' is-error' : ''}`}
                        style={{ width: `${(r.count / max) * 100}%` }}
                      />
                    </span>
                    <span className="mon-bar-value">{r.count.toLocaleString(locale)}</span>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="state state-empty">{t('mon.svc.none')}</p>
      )}
    </Card>
  );
}

function LastRuns({ stats }: { stats: ServiceStats }) {
  const { t, locale } = useT(monMessages);
  const when = (v: string | null) => (v ? new Date(v).toLocaleString(locale) : t('mon.svc.never'));
  return (
    <Card id="svc-last-runs" title={t('mon.svc.lastRuns')} wide>
      {stats.last_run_per_source.length ? (
        <div className="mon-table-wrap">
          <table className="mon-table mon-stack">
            <thead>
              <tr>
                <th scope="col">{t('mon.svc.source')}</th>
                <th scope="col">{t('mon.svc.topic')}</th>
                <th scope="col">{t('mon.svc.lastFetched')}</th>
                <th scope="col">{t('mon.svc.lastArticle')}</th>
                <th scope="col">{t('mon.svc.status')}</th>
              </tr>
            </thead>
            <tbody>
              {stats.last_run_per_source.map((r) => (
                <tr key={r.source_id}>
                  <td data-label={t('mon.svc.source')}>{r.name}</td>
                  <td data-label={t('mon.svc.topic')}>{r.topic}</td>
                  <td data-label={t('mon.svc.lastFetched')}>{when(r.last_fetched_at)}</td>
                  <td data-label={t('mon.svc.lastArticle')}>{when(r.last_article_at)}</td>
                  <td data-label={t('mon.svc.status')}>
                    {r.last_error ? (
                      <span className="mon-badge mon-badge-error" title={r.last_error}>
                        {r.last_error}
                      </span>
                    ) : !r.enabled ? (
                      <span className="mon-badge">{t('mon.svc.disabled')}</span>
                    ) : (
                      <span className="mon-badge mon-badge-ok">{t('mon.svc.ok')}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="state state-empty">{t('mon.svc.none')}</p>
      )}
    </Card>
  );
}
