import { useEffect, useState } from 'react';
import { Clock, PlugZap, RefreshCw } from 'lucide-react';
import { ageText, readMatrix, readStreams, readTraces, statValue } from '../model/panel-data';
import type { PanelDef, PanelState } from '../model/types';
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
  const now = useNow(5000);
  const wide = panel.kind === 'logs' || panel.kind === 'traces';
  return (
    <section
      className={`mon-panel mon-panel-${panel.kind}${wide ? ' mon-panel-wide' : ''}`}
      aria-labelledby={`panel-${panel.id}`}
      data-panel={panel.id}
      data-state={state.status === 'ok' && state.stale ? 'stale' : state.status}
    >
      <header className="mon-panel-head">
        <h3 id={`panel-${panel.id}`}>{panel.title}</h3>
        {state.status === 'ok' && state.stale && (
          <span
            className="mon-badge mon-badge-stale"
            title="The data source is rate limiting; showing the last good data"
          >
            <Clock size={12} aria-hidden /> stale · {ageText(state.fetchedAt, now)}
          </span>
        )}
        <button
          type="button"
          className={`icon-button${refreshing ? ' is-spinning' : ''}`}
          aria-label={`Refresh ${panel.title}`}
          aria-busy={refreshing}
          disabled={refreshing}
          onClick={onRefresh}
        >
          <RefreshCw size={16} aria-hidden />
        </button>
      </header>
      <div className="mon-panel-body">
        {refreshing && <span className="mon-spinner" role="status" aria-label="Refreshing" />}
        <PanelBody panel={panel} state={state} />
      </div>
    </section>
  );
}

function PanelBody({ panel, state }: { panel: PanelDef; state: PanelState }) {
  switch (state.status) {
    case 'loading':
      return (
        <p className="state state-loading" role="status">
          Loading…
        </p>
      );
    case 'not-configured':
      return (
        <div className="mon-placeholder" data-testid="not-configured">
          <PlugZap size={20} aria-hidden />
          <p>Monitoring is not configured. Set the MONITOR_* variables on the backend to see this panel.</p>
        </div>
      );
    case 'error':
      return (
        <p className="state state-error" role="alert">
          {state.message}
        </p>
      );
    case 'ok':
      if (panel.kind === 'stat') {
        const v = statValue(readMatrix(state.data));
        return (
          <p className="mon-stat">
            {v === null ? '—' : formatNumber(v)}
            {panel.unit && <span className="mon-unit"> {panel.unit}</span>}
          </p>
        );
      }
      if (panel.kind === 'timeseries') {
        const series = readMatrix(state.data);
        return series.length ? (
          <TimeseriesChart series={series} unit={panel.unit} />
        ) : (
          <p className="state state-empty">No data in this range.</p>
        );
      }
      if (panel.kind === 'logs') return <LogsTable streams={readStreams(state.data)} />;
      return <TracesTable traces={readTraces(state.data)} />;
  }
}

const formatNumber = (v: number) =>
  Number.isInteger(v) ? v.toLocaleString() : v.toLocaleString(undefined, { maximumFractionDigits: 2 });
