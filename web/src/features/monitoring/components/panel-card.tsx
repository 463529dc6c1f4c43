import { useEffect, useState } from 'react';
import { AlertTriangle, Clock, PlugZap, RefreshCw } from 'lucide-react';
import { age, readMatrix, readStreams, readTraces, statValue } from '../model/panel-data';
import type { PanelDef, PanelError, PanelState } from '../model/types';
import { storeOf } from '../model/types';
import { useT } from '../../../lib/i18n';
import { monMessages, type MonKey, type MonT } from '../i18n/messages';
import { LogsTable } from './logs-table';
import { TimeseriesChart } from './timeseries-chart';
import { TracesTable } from './traces-table';

function useNow(everyMs: number) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

export const ageLabel = (t: MonT, at: number, now: number) => {
  const a = age(at, now);
  return t(`mon.age.${a.unit}`, { n: a.n });
};

/** A panel's title and unit in the page's language (the catalog's English title as fallback). */
export function usePanelText(panel: PanelDef) {
  const { tx } = useT(monMessages);
  return {
    title: tx(`mon.panel.${panel.id}`, panel.title),
    unit: panel.unit ? tx(`mon.unit.${panel.unit}`, panel.unit) : undefined,
  };
}

/** One panel: its own loading, placeholder, error and stale states, and its own refresh icon. */
export function PanelCard({
  panel,
  state,
  refreshing,
  onRefresh,
}: {
  panel: PanelDef;
  state: PanelState;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const { t } = useT(monMessages);
  const { title } = usePanelText(panel);
  const now = useNow(5000);
  const wide = panel.kind === 'logs' || panel.kind === 'traces';
  const stale = state.status === 'ok' && state.stale;
  return (
    <section
      className={`mon-panel mon-panel-${panel.kind}${wide ? ' mon-panel-wide' : ''}`}
      aria-labelledby={`panel-${panel.id}`}
      data-panel={panel.id}
      data-state={stale ? 'stale' : state.status}
      data-error={
        state.status === 'error' ? state.error.code : state.status === 'ok' ? state.error?.code : undefined
      }
    >
      <header className="mon-panel-head">
        <h3 id={`panel-${panel.id}`}>{title}</h3>
        {stale && (
          <span
            className="mon-badge mon-badge-stale"
            title={t(state.error ? 'mon.stale.outage' : 'mon.stale.rateLimited')}
          >
            <Clock size={12} aria-hidden /> {t('mon.stale', { age: ageLabel(t, state.fetchedAt, now) })}
          </span>
        )}
        <button
          type="button"
          className={`icon-button${refreshing ? ' is-spinning' : ''}`}
          aria-label={t('mon.refreshPanel', { title })}
          aria-busy={refreshing}
          disabled={refreshing}
          onClick={onRefresh}
        >
          <RefreshCw size={16} aria-hidden />
        </button>
      </header>
      <div className="mon-panel-body">
        {refreshing && <span className="mon-spinner" role="status" aria-label={t('mon.refreshing')} />}
        {state.status === 'ok' && state.error && <ErrorNote panel={panel} error={state.error} now={now} />}
        <PanelBody panel={panel} state={state} now={now} />
      </div>
    </section>
  );
}

const ERROR_KEYS = new Set([
  'bad_query',
  'upstream_error',
  'upstream_timeout',
  'rate_limited',
  'upstream_format',
]);

/** What went wrong, in the page's language, with the store's or server's own words and the data's age. */
function ErrorNote({ panel, error, now }: { panel: PanelDef; error: PanelError; now: number }) {
  const { t } = useT(monMessages);
  const store = t(`mon.store.${storeOf(panel.datasource)}`);
  const head =
    error.code === 'no_result'
      ? t('mon.noResult')
      : error.code === 'load_failed'
        ? t('mon.loadFailed')
        : t((ERROR_KEYS.has(error.code) ? `mon.err.${error.code}` : 'mon.err.other') as MonKey, { store });
  return (
    <div className={`mon-error${error.code === 'bad_query' ? ' is-bad-query' : ''}`} role="alert">
      <p className="mon-error-head">
        <AlertTriangle size={14} aria-hidden /> {head}
      </p>
      {error.message && <code className="mon-error-reason">{error.message}</code>}
      {error.code !== 'bad_query' && error.code !== 'upstream_format' && (
        <p className="mon-muted mon-error-age">
          {error.lastFetchedAt
            ? t('mon.err.lastGood', { age: ageLabel(t, error.lastFetchedAt, now) })
            : t('mon.err.noLastGood')}
        </p>
      )}
    </div>
  );
}

function PanelBody({ panel, state, now }: { panel: PanelDef; state: PanelState; now: number }) {
  const { t } = useT(monMessages);
  const { unit } = usePanelText(panel);
  switch (state.status) {
    case 'loading':
      return (
        <p className="state state-loading" role="status">
          {t('mon.loading')}
        </p>
      );
    case 'not-configured':
      return (
        <p className="mon-placeholder" data-testid="not-configured">
          <PlugZap size={16} aria-hidden />
          {t('mon.notConfiguredShort', { store: t(`mon.store.${state.store}`) })}
        </p>
      );
    case 'error':
      return <ErrorNote panel={panel} error={state.error} now={now} />;
    case 'ok':
      if (panel.kind === 'stat') {
        const v = statValue(readMatrix(state.data));
        return (
          <p className="mon-stat">
            {v === null ? '—' : formatNumber(v)}
            {unit && <span className="mon-unit"> {unit}</span>}
          </p>
        );
      }
      if (panel.kind === 'timeseries') {
        const series = readMatrix(state.data);
        // a series of NaN only (a quantile of no observations) draws nothing: say so
        const drawable = series.some((s) => s.values.some(([, v]) => Number.isFinite(Number(v))));
        return drawable ? (
          <TimeseriesChart series={series} unit={unit} window={state.window} />
        ) : (
          <p className="state state-empty">{t('mon.noData')}</p>
        );
      }
      if (panel.kind === 'logs') return <LogsTable streams={readStreams(state.data)} />;
      return <TracesTable traces={readTraces(state.data)} />;
  }
}

const formatNumber = (v: number) =>
  Number.isInteger(v) ? v.toLocaleString() : v.toLocaleString(undefined, { maximumFractionDigits: 2 });
