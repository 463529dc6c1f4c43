import { useState } from 'react';
import { useSearchParams } from 'react-router';
import './monitoring.css';
import { useDashboard } from './model/use-dashboard';
import type { Environment, TabId, TimeRange } from './model/types';
import { PanelCard } from './components/panel-card';

const TABS: { id: TabId; label: string }[] = [
  { id: 'operations', label: 'Operations' },
  { id: 'logs', label: 'Logs' },
  { id: 'traces', label: 'Traces' },
];
const RANGES: TimeRange[] = ['6h', '24h', '3d', '7d'];
const ENVS: Environment[] = ['all', 'local', 'production'];

/**
 * The admin monitoring dashboard: three tabs of panels read through the backend's /monitor proxy,
 * one global filter for all of them, refreshed on an interval (`?interval=` seconds, default 60).
 */
export default function MonitoringPage() {
  const [params, setParams] = useSearchParams();
  const tab = (TABS.find((t) => t.id === params.get('tab'))?.id ?? 'operations') as TabId;
  const range = (RANGES.find((r) => r === params.get('range')) ?? '24h') as TimeRange;
  const env = (ENVS.find((e) => e === params.get('env')) ?? 'all') as Environment;
  const interval = Number(params.get('interval') ?? '') || 60;
  const set = (k: string, v: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set(k, v);
        return next;
      },
      { replace: true },
    );
  const d = useDashboard(tab, range, env, interval);
  const [tabFocus, setTabFocus] = useState(tab);

  return (
    <section className="mon-page">
      <header className="mon-header">
        <h1>Monitoring</h1>
        <form className="mon-filters" aria-label="Global filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Time range{' '}
            <select value={range} onChange={(e) => set('range', e.target.value)} name="range">
              {RANGES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <label>
            Environment{' '}
            <select value={env} onChange={(e) => set('env', e.target.value)} name="env">
              {ENVS.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </label>
          <span className="mon-muted">
            refresh every {interval} s{d.notConfigured ? ' (paused: not configured)' : ''}
          </span>
        </form>
      </header>
      <div role="tablist" aria-label="Dashboard tabs" className="mon-tabs">
        {TABS.map((t) => (
          <button
            key={t.id}
            role="tab"
            type="button"
            id={`tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls={`tabpanel-${t.id}`}
            tabIndex={t.id === (tabFocus ?? tab) ? 0 : -1}
            onClick={() => set('tab', t.id)}
            onKeyDown={(e) => {
              const i = TABS.findIndex((x) => x.id === t.id);
              const next =
                e.key === 'ArrowRight'
                  ? TABS[(i + 1) % TABS.length]
                  : e.key === 'ArrowLeft'
                    ? TABS[(i + TABS.length - 1) % TABS.length]
                    : undefined;
              if (next) {
                setTabFocus(next.id);
                set('tab', next.id);
                document.getElementById(`tab-${next.id}`)?.focus();
              }
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`tabpanel-${tab}`} aria-labelledby={`tab-${tab}`} className="mon-grid">
        {d.catalogError && (
          <p className="state state-error" role="alert">
            {d.catalogError}
          </p>
        )}
        {!d.catalog && !d.catalogError && (
          <p className="state state-loading" role="status">
            Loading panels…
          </p>
        )}
        {d.panels.map((p) => (
          <PanelCard
            key={p.id}
            panel={p}
            state={d.states[p.id] ?? { status: 'loading' }}
            refreshing={Boolean(d.refreshing[p.id])}
            onRefresh={() => void d.refreshPanel(p)}
          />
        ))}
      </div>
    </section>
  );
}
