import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/ui';
import { getPanelData, getPanels, postBatch } from '../api/monitor';
import { groupByDatasource, takeEarlyBatch, takeEarlyCatalog } from '../api/early-catalog';
import { FormatError, queryWindow, readMatrix, readStreams, readTraces, slideWindow } from './panel-data';
import {
  storeOf,
  type Environment,
  type PanelCatalog,
  type PanelDef,
  type PanelError,
  type PanelState,
  type Store,
  type TabId,
  type TimeRange,
} from './types';

/** Checks a payload has the shape the panel draws; a changed upstream format becomes the panel's error. */
export function checkShape(panel: PanelDef, data: unknown): void {
  if (panel.kind === 'stat' || panel.kind === 'timeseries') readMatrix(data);
  else if (panel.kind === 'logs') readStreams(data);
  else readTraces(data);
}

export function settle(
  panel: PanelDef,
  data: unknown,
  fetchedAt: number,
  stale: boolean,
  window: [number, number],
): PanelState {
  try {
    checkShape(panel, data);
    return { status: 'ok', data, fetchedAt, stale, window };
  } catch (e) {
    // the raw payload goes to the console so an operator can see what changed upstream
    console.error(
      `[monitoring] panel "${panel.id}": unexpected upstream format`,
      (e as FormatError).raw ?? e,
    );
    return { status: 'error', error: { code: 'upstream_format' } };
  }
}

/** Errors of a store that is down or throttling: the panel keeps its last data, marked stale. */
const OUTAGE = new Set(['upstream_error', 'upstream_timeout', 'rate_limited', 'load_failed']);

/**
 * A panel that fails keeps the data it has when the store is down or rate limiting (marked stale,
 * with the error and its original fetch time, so the age shown grows); a refused query or a changed
 * format replaces it: that data would not come back by waiting.
 */
export function failed(had: PanelState | undefined, error: PanelError): PanelState {
  if (had?.status === 'ok' && OUTAGE.has(error.code))
    return { ...had, stale: true, error: { ...error, lastFetchedAt: error.lastFetchedAt ?? had.fetchedAt } };
  const lastFetchedAt =
    error.lastFetchedAt ?? (had?.status === 'error' ? had.error.lastFetchedAt : undefined);
  return { status: 'error', error: { ...error, lastFetchedAt } };
}

export const errorOf = (e: unknown): PanelError =>
  e instanceof ApiError
    ? { code: e.status === 429 ? 'rate_limited' : e.code, message: e.message }
    : { code: 'load_failed' };

/**
 * A store's state, the same on every tab: `missing` (no address on the server, or it answered 503),
 * `configured` (an address, not queried yet), `ok` (it answered).
 */
export type StoreStatus = Partial<Record<Store, 'missing' | 'configured' | 'ok'>>;

export interface Dashboard {
  catalog: PanelCatalog | null;
  catalogError: string | null;
  panels: PanelDef[];
  states: Record<string, PanelState>;
  refreshing: Record<string, boolean>;
  /** every panel of the tab waits for a store that is not configured (the interval stops) */
  notConfigured: boolean;
  /** what the server said of each store so far: a 503 names it missing */
  stores: StoreStatus;
  refreshPanel(panel: PanelDef): Promise<void>;
}

/**
 * Loading rules of the dashboard: the first visit to a tab (and every filter change) fills all its
 * panels with one batch request per datasource type; every interval tick does the same for the
 * current tab, skipping stores known to be missing; a 503 (not configured) marks the panels of that
 * store; a panel's own refresh is one GET.
 */
export function useDashboard(
  /** null: no dashboard tab is shown (the Service tab), nothing is queried */
  tab: TabId | null,
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
  const [stores, setStores] = useState<StoreStatus>({});
  const missing = useRef(new Set<Store>());
  const generation = useRef(0);

  useEffect(() => {
    const ctrl = new AbortController();
    setCatalogError(null);
    // requested while the page's code was loading (app.tsx), else now
    const answer =
      takeEarlyCatalog(range, env) ??
      getPanels(range, env, ctrl.signal).then((catalog) => ({ catalog, at: Date.now() }));
    answer.then(
      ({ catalog: c, at }) => {
        if (ctrl.signal.aborted) return;
        catalogAt.current = at;
        setCatalog(c);
        // what the server says of each store holds for every tab, before any of them is queried
        if (c.stores) {
          const told = c.stores;
          setStores((s) => {
            const next = { ...s };
            for (const store of ['logs', 'traces', 'metrics'] as const) {
              if (!told[store]) next[store] = 'missing';
              else if (next[store] !== 'ok') next[store] = 'configured';
            }
            return next;
          });
        }
      },
      (e: unknown) => {
        if (!ctrl.signal.aborted) setCatalogError(e instanceof ApiError ? errorMessage(e, '') : '');
      },
    );
    return () => ctrl.abort();
  }, [range, env]);

  const panels = catalog && tab ? catalog.panels.filter((p) => p.tab === tab) : [];

  const markStore = useCallback((store: Store, status: 'missing' | 'ok') => {
    if (status === 'missing') missing.current.add(store);
    else missing.current.delete(store);
    setStores((s) => (s[store] === status ? s : { ...s, [store]: status }));
  }, []);

  const loadTab = useCallback(
    /** `from`: the catalog of a tab's first load, whose early batch (app.tsx) the load takes when there is one */
    async (tabPanels: PanelDef[], gen: number, initial: boolean, from?: PanelCatalog) => {
      const groups = groupByDatasource(
        initial ? tabPanels : tabPanels.filter((p) => !missing.current.has(storeOf(p.datasource))),
      );
      if (initial)
        setStates((s) => ({
          ...s,
          ...Object.fromEntries(
            tabPanels.map((p) => [
              p.id,
              s[p.id]?.status === 'ok' ? s[p.id]! : { status: 'loading' as const },
            ]),
          ),
        }));
      await Promise.all(
        [...groups].map(async ([ds, list]) => {
          let apply: (s: Record<string, PanelState>) => Record<string, PanelState>;
          try {
            const early = from ? takeEarlyBatch(from, ds, list) : null;
            const queries = early?.queries ?? list.map((p) => current(p.query));
            const { results } = await (early?.answer ?? postBatch(ds, queries));
            markStore(storeOf(ds), 'ok');
            const byId = new Map(results.map((r) => [r.id, r]));
            apply = (s) =>
              Object.fromEntries(
                list.map((p, i) => {
                  const r = byId.get(p.query.id);
                  if (!r) return [p.id, failed(s[p.id], { code: 'no_result' })];
                  if (r.status === 'error') {
                    if (r.error.code === 'upstream_format')
                      console.error(`[monitoring] panel "${p.id}": ${r.error.message}`);
                    const last = r.last_fetched_at ? Date.parse(r.last_fetched_at) : NaN;
                    return [
                      p.id,
                      failed(s[p.id], {
                        code: r.error.code,
                        message: r.error.message,
                        lastFetchedAt: Number.isFinite(last) ? last : undefined,
                      }),
                    ];
                  }
                  const at = Date.parse(r.fetched_at) || Date.now();
                  return [p.id, settle(p, r.data, at, r.stale, queryWindow(queries[i]!))];
                }),
              );
          } catch (e) {
            if (e instanceof ApiError && e.status === 503) {
              markStore(storeOf(ds), 'missing');
              apply = () =>
                Object.fromEntries(
                  list.map((p) => [p.id, { status: 'not-configured' as const, store: storeOf(ds) }]),
                );
            } else {
              const error = errorOf(e);
              apply = (s) => Object.fromEntries(list.map((p) => [p.id, failed(s[p.id], error)]));
            }
          }
          if (gen === generation.current) setStates((s) => ({ ...s, ...apply(s) }));
        }),
      );
    },
    [markStore],
  );

  // first visit to a tab, and every filter change (a new catalog): one batch per datasource type
  const panelKey = panels.map((p) => `${p.id}:${JSON.stringify(p.query)}`).join('|');
  useEffect(() => {
    if (!panels.length) return;
    const gen = ++generation.current;
    void loadTab(panels, gen, true, catalog ?? undefined);
  }, [panelKey, loadTab]);

  const notConfigured = panels.length > 0 && panels.every((p) => states[p.id]?.status === 'not-configured');

  // every interval tick refreshes the current tab through one batch per type
  useEffect(() => {
    if (!panels.length || notConfigured || intervalSeconds <= 0) return;
    const timer = setInterval(() => void loadTab(panels, generation.current, false), intervalSeconds * 1000);
    return () => clearInterval(timer);
  }, [panelKey, notConfigured, intervalSeconds, loadTab]);

  const refreshPanel = useCallback(async (panel: PanelDef) => {
    setRefreshing((r) => ({ ...r, [panel.id]: true }));
    const query = current(panel.query);
    try {
      const { data, stale, fetchedAt } = await getPanelData({ ...panel, query });
      setStates((s) => ({ ...s, [panel.id]: settle(panel, data, fetchedAt, stale, queryWindow(query)) }));
    } catch (e) {
      if (e instanceof ApiError && e.status === 503)
        setStates((s) => ({
          ...s,
          [panel.id]: { status: 'not-configured', store: storeOf(panel.datasource) },
        }));
      else {
        if (e instanceof ApiError && e.code === 'upstream_format')
          console.error(`[monitoring] panel "${panel.id}": ${e.message}`);
        setStates((s) => ({ ...s, [panel.id]: failed(s[panel.id], errorOf(e)) }));
      }
    } finally {
      setRefreshing((r) => ({ ...r, [panel.id]: false }));
    }
  }, []);

  return { catalog, catalogError, panels, states, refreshing, notConfigured, stores, refreshPanel };
}
