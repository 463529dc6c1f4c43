import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import './monitoring.css';
import { useDashboard } from './model/use-dashboard';
import {
  ENVS,
  RANGES,
  TABS,
  dashboardFilter,
  fallbackTab,
  requestedTab,
  type PageTab,
} from './api/early-catalog';
import { PanelCard } from './components/panel-card';
import { SetupCard } from './components/setup-card';
import { SERVICE_DAYS, ServiceTab } from './components/service-tab';
import { MetricsExplore } from './components/metrics-explore';
import { useT } from '../../lib/i18n';
import { monMessages } from './i18n/messages';

/** the refresh picker: off, 30 s, 1 min, 5 min (seconds; 0 = off) */
const INTERVALS = [0, 30, 60, 300] as const;

/** `?interval=` in seconds: 0 or "off" stops it, a missing or unreadable value is 60. */
function readInterval(v: string | null): number {
  if (v === 'off' || v === '0') return 0;
  const n = Number(v ?? '');
  return Number.isFinite(n) && n > 0 ? n : 60;
}

/**
 * The admin monitoring dashboard: four tabs of panels read through the backend's /monitor proxy
 * (Operations, Logs and Traces from the log and trace stores, Metrics from the metrics store with a
 * query box), one global filter for all of them, refreshed on the chosen interval (`?interval=`
 * seconds), and a built-in Service tab from the service's own database. Without `?tab=` it opens on
 * Operations, or on Service while no store is configured (the other tabs would only say so).
 */
export default function MonitoringPage() {
  const { t } = useT(monMessages);
  const [params, setParams] = useSearchParams();
  const requested = requestedTab(params);
  const [fallback, setFallback] = useState<PageTab | null>(null);
  const tab: PageTab | null = requested ?? fallback;
  const { range, env } = dashboardFilter(params);
  const interval = readInterval(params.get('interval'));
  const days = SERVICE_DAYS.find((d) => String(d) === params.get('days')) ?? 30;
  const set = (k: string, v: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.set(k, v);
        return next;
      },
      { replace: true },
    );
  const d = useDashboard(tab === 'service' ? null : tab, range, env, tab === 'service' ? 0 : interval);
  const noStore = d.catalog?.stores ? !Object.values(d.catalog.stores).some(Boolean) : false;
  useEffect(() => {
    if (!requested && !fallback && d.catalog) setFallback(fallbackTab(d.catalog));
  }, [requested, fallback, d.catalog]);
  const [tabFocus, setTabFocus] = useState<PageTab | null>(null);
  const intervals: number[] = INTERVALS.includes(interval as (typeof INTERVALS)[number])
    ? [...INTERVALS]
    : [...INTERVALS, interval];
  const intervalLabel = (n: number) =>
    n === 0
      ? t('mon.refresh.off')
      : n === 30 || n === 60 || n === 300
        ? t(`mon.refresh.${n}`)
        : t('mon.refresh.every', { n });

  return (
    <section className="mon-page">
      <header className="mon-header">
        <h1>{t('mon.title')}</h1>
        <form className="mon-filters" aria-label={t('mon.filters')} onSubmit={(e) => e.preventDefault()}>
          {tab === 'service' ? (
            <label>
              {t('mon.svc.days')}{' '}
              <select value={days} onChange={(e) => set('days', e.target.value)} name="days">
                {SERVICE_DAYS.map((n) => (
                  <option key={n} value={n}>
                    {t('mon.svc.days.n', { n })}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <>
              <label>
                {t('mon.range')}{' '}
                <select value={range} onChange={(e) => set('range', e.target.value)} name="range">
                  {RANGES.map((r) => (
                    <option key={r} value={r}>
                      {t(`mon.range.${r}`)}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                {t('mon.env')}{' '}
                <select value={env} onChange={(e) => set('env', e.target.value)} name="env">
                  {ENVS.map((x) => (
                    <option key={x} value={x}>
                      {t(`mon.env.${x}`)}
                    </option>
                  ))}
                </select>
              </label>
            </>
          )}
          <label>
            {t('mon.refresh')}{' '}
            <select value={interval} onChange={(e) => set('interval', e.target.value)} name="interval">
              {intervals.map((n) => (
                <option key={n} value={n}>
                  {intervalLabel(n)}
                </option>
              ))}
            </select>
          </label>
          {tab !== 'service' && d.notConfigured && interval > 0 && (
            <span className="mon-muted">({t('mon.refresh.paused')})</span>
          )}
        </form>
      </header>
      <div role="tablist" aria-label={t('mon.tabs')} className="mon-tabs">
        {TABS.map((id) => (
          <button
            key={id}
            role="tab"
            type="button"
            id={`tab-${id}`}
            aria-selected={id === tab}
            aria-controls={`tabpanel-${id}`}
            tabIndex={id === (tabFocus ?? tab ?? TABS[0]) ? 0 : -1}
            onClick={() => set('tab', id)}
            onKeyDown={(e) => {
              const i = TABS.indexOf(id);
              const next =
                e.key === 'ArrowRight'
                  ? TABS[(i + 1) % TABS.length]
                  : e.key === 'ArrowLeft'
                    ? TABS[(i + TABS.length - 1) % TABS.length]
                    : undefined;
              if (next) {
                setTabFocus(next);
                set('tab', next);
                document.getElementById(`tab-${next}`)?.focus();
              }
            }}
          >
            {t(`mon.tab.${id}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`tabpanel-${tab}`} aria-labelledby={`tab-${tab}`} className="mon-grid">
        {tab === null ? (
          d.catalogError !== null ? (
            <p className="state state-error" role="alert">
              {d.catalogError || t('mon.catalogError')}
            </p>
          ) : (
            <p className="state state-loading" role="status">
              {t('mon.loadingPanels')}
            </p>
          )
        ) : tab === 'service' ? (
          <>
            {noStore && (
              <p className="mon-muted mon-span-all" data-testid="no-store-note">
                {t('mon.svc.noStores')}
              </p>
            )}
            <ServiceTab days={days} intervalSeconds={interval} />
          </>
        ) : (
          <DashboardTab
            d={d}
            explore={
              tab === 'metrics' ? <MetricsExplore range={range} intervalSeconds={interval} /> : undefined
            }
          />
        )}
      </div>
    </section>
  );
}

function DashboardTab({ d, explore }: { d: ReturnType<typeof useDashboard>; explore?: ReactNode }) {
  const { t } = useT(monMessages);
  const unconfigured = d.panels.filter((p) => d.states[p.id]?.status === 'not-configured');
  return (
    <>
      {d.catalogError !== null && (
        <p className="state state-error" role="alert">
          {d.catalogError || t('mon.catalogError')}
        </p>
      )}
      {!d.catalog && d.catalogError === null && (
        <p className="state state-loading" role="status">
          {t('mon.loadingPanels')}
        </p>
      )}
      {unconfigured.length > 0 && <SetupCard stores={d.stores} panels={d.catalog?.panels ?? []} />}
      {explore}
      {/* the card explains once; each waiting panel only names the store it needs (a placeholder per panel: docs/decisions/0083-monitoring-page.md) */}
      {d.panels.map((p) => (
        <PanelCard
          key={p.id}
          panel={p}
          state={d.states[p.id] ?? { status: 'loading' }}
          refreshing={Boolean(d.refreshing[p.id])}
          onRefresh={() => void d.refreshPanel(p)}
        />
      ))}
    </>
  );
}
