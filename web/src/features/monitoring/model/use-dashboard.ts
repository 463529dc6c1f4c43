import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { getPanelData, getPanels, postBatch } from '../api/monitor';
import { FormatError, readMatrix, readStreams, readTraces, slideWindow } from './panel-data';
import type { Datasource, Environment, PanelCatalog, PanelDef, PanelState, TabId, TimeRange } from './types';

/** Checks a payload has the shape the panel draws; a changed upstream format becomes the panel's error. */
export function checkShape(panel: PanelDef, data: unknown): void {
  if (panel.kind === 'stat' || panel.kind === 'timeseries') readMatrix(data);
  else if (panel.kind === 'logs') readStreams(data);
  else readTraces(data);
}

function settle(panel: PanelDef, data: unknown, fetchedAt: number, stale: boolean): PanelState {
  try {
    checkShape(panel, data);
    return { status: 'ok', data, fetchedAt, stale };
  } catch (e) {
    // the raw payload goes to the console so an operator can see what changed upstream
    console.error(
      `[monitoring] panel "${panel.id}": unexpected upstream format`,
      (e as FormatError).raw ?? e,
    );
    return { status: 'error', message: 'The data source answered in an unexpected format.' };
  }
}

/**
 * A rate-limited panel keeps the data it has, marked stale with its original fetch time (the age
 * shown grows); only a panel with nothing to show yet takes the error.
 */
function keepOnRateLimit(
  current: Record<string, PanelState>,
  next: Record<string, PanelState>,
  limited: Set<string>,
): Record<string, PanelState> {
  const out = { ...next };
  for (const id of limited) {
    const had = current[id];
    if (had?.status === 'ok') out[id] = { ...had, stale: true };
  }
  return out;
}

export interface Dashboard {
  catalog: PanelCatalog | null;
  catalogError: string | null;
  panels: PanelDef[];
  states: Record<string, PanelState>;
  refreshing: Record<string, boolean>;
  notConfigured: boolean;
  refreshPanel(panel: PanelDef): Promise<void>;
}

/**
 * Loading rules of the dashboard: the first visit to a tab (and every filter change) fills all its
 * panels with one batch request per datasource type; every interval tick does the same for the
 * current tab; a 503 (not configured) turns every panel of the tab into a placeholder and stops the
 * interval; a panel's own refresh is one GET.
 */
export function useDashboard(
  tab: TabId,
  range: TimeRange,
  env: Environment,
  intervalSeconds: number,
): Dashboard {
  const [catalog, setCatalog] = useState<PanelCatalog | null>(null);
  const [catalogError, setCatalogError] = useState<string | null>(null);
  // the catalog's windows end when it was fetched; every later request slides them to "now"
  const catalogAt = useRef(Date.now());
  const current = (q: PanelDef['query']) => slideWindow(q, Date.now() - catalogAt.current);
  const [states, setStates] = useState<Record<string, PanelState>>({});
  const [refreshing, setRefreshing] = useState<Record<string, boolean>>({});
  const [notConfigured, setNotConfigured] = useState(false);
  const generation = useRef(0);

  useEffect(() => {
    const ctrl = new AbortController();
    setCatalogError(null);
    getPanels(range, env, ctrl.signal).then(
      (c) => {
        catalogAt.current = Date.now();
        setCatalog(c);
      },
      (e: unknown) => {
        if ((e as Error).name !== 'AbortError')
          setCatalogError(e instanceof ApiError ? e.message : 'The panel catalog could not be loaded.');
      },
    );
    return () => ctrl.abort();
  }, [range, env]);

  const panels = catalog ? catalog.panels.filter((p) => p.tab === tab) : [];

  const loadTab = useCallback(async (tabPanels: PanelDef[], gen: number, initial: boolean) => {
    const groups = new Map<Datasource, PanelDef[]>();
    for (const p of tabPanels) groups.set(p.datasource, [...(groups.get(p.datasource) ?? []), p]);
    if (initial)
      setStates((s) => ({
        ...s,
        ...Object.fromEntries(
          tabPanels.map((p) => [p.id, s[p.id]?.status === 'ok' ? s[p.id]! : { status: 'loading' as const }]),
        ),
      }));
    let unconfigured = false;
    await Promise.all(
      [...groups].map(async ([ds, list]) => {
        let next: Record<string, PanelState>;
        const limited = new Set<string>();
        try {
          const { results } = await postBatch(
            ds,
            list.map((p) => current(p.query)),
          );
          const byId = new Map(results.map((r) => [r.id, r]));
          next = Object.fromEntries(
            list.map((p) => {
              const r = byId.get(p.query.id);
              if (!r) return [p.id, { status: 'error', message: 'No result for this panel.' }];
              if (r.status === 'error') {
                if (r.error.code === 'rate_limited') limited.add(p.id);
                if (r.error.code === 'upstream_format')
                  console.error(`[monitoring] panel "${p.id}": ${r.error.message}`);
                return [p.id, { status: 'error', message: r.error.message }];
              }
              return [p.id, settle(p, r.data, Date.parse(r.fetched_at) || Date.now(), r.stale)];
            }),
          );
        } catch (e) {
          if (e instanceof ApiError && e.status === 503) {
            unconfigured = true;
            next = Object.fromEntries(list.map((p) => [p.id, { status: 'not-configured' as const }]));
          } else {
            const message = e instanceof ApiError ? e.message : 'The data could not be loaded.';
            if (e instanceof ApiError && e.status === 429) for (const p of list) limited.add(p.id);
            next = Object.fromEntries(list.map((p) => [p.id, { status: 'error' as const, message }]));
          }
        }
        if (gen === generation.current) setStates((s) => ({ ...s, ...keepOnRateLimit(s, next, limited) }));
      }),
    );
    if (unconfigured && gen === generation.current) {
      // every panel of the tab shows the placeholder, and the interval stops retrying
      setStates((s) => ({
        ...s,
        ...Object.fromEntries(tabPanels.map((p) => [p.id, { status: 'not-configured' as const }])),
      }));
      setNotConfigured(true);
    }
  }, []);

  // first visit to a tab, and every filter change (a new catalog): one batch per datasource type
  const panelKey = panels.map((p) => `${p.id}:${JSON.stringify(p.query)}`).join('|');
  useEffect(() => {
    if (!panels.length) return;
    const gen = ++generation.current;
    setNotConfigured(false);
    void loadTab(panels, gen, true);
  }, [panelKey, loadTab]);

  // every interval tick refreshes the current tab through one batch per type
  useEffect(() => {
    if (!panels.length || notConfigured || intervalSeconds <= 0) return;
    const timer = setInterval(() => void loadTab(panels, generation.current, false), intervalSeconds * 1000);
    return () => clearInterval(timer);
  }, [panelKey, notConfigured, intervalSeconds, loadTab]);

  const refreshPanel = useCallback(async (panel: PanelDef) => {
    setRefreshing((r) => ({ ...r, [panel.id]: true }));
    try {
      const { data, stale, fetchedAt } = await getPanelData({ ...panel, query: current(panel.query) });
      setStates((s) => ({ ...s, [panel.id]: settle(panel, data, fetchedAt, stale) }));
    } catch (e) {
      if (e instanceof ApiError && e.status === 503)
        setStates((s) => ({ ...s, [panel.id]: { status: 'not-configured' } }));
      else if (e instanceof ApiError && e.status === 429)
        setStates((s) => ({
          ...s,
          ...keepOnRateLimit(s, { [panel.id]: { status: 'error', message: e.message } }, new Set([panel.id])),
        }));
      else {
        if (e instanceof ApiError && e.code === 'upstream_format')
          console.error(`[monitoring] panel "${panel.id}": ${e.message}`);
        setStates((s) => ({
          ...s,
          [panel.id]: {
            status: 'error',
            message: e instanceof ApiError ? e.message : 'The data could not be loaded.',
          },
        }));
      }
    } finally {
      setRefreshing((r) => ({ ...r, [panel.id]: false }));
    }
  }, []);

  return { catalog, catalogError, panels, states, refreshing, notConfigured, refreshPanel };
}
