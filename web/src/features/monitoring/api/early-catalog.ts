import { getPanels, postBatch } from './monitor';
import type {
  BatchResult,
  Datasource,
  Environment,
  PanelCatalog,
  PanelDef,
  PanelQuery,
  TabId,
  TimeRange,
} from '../model/types';

export const RANGES: TimeRange[] = ['6h', '24h', '3d', '7d'];
export const ENVS: Environment[] = ['all', 'local', 'production'];

/** the dashboard's tabs: its own Service tab, then the tabs of panels read from the stores */
export type PageTab = TabId | 'service';
/** the Service tab first: it reads the service's own database and works on every install */
export const TABS: PageTab[] = ['service', 'operations', 'logs', 'traces', 'metrics'];

/** the global filter a dashboard address asks for: `?range=` and `?env=`, defaults when absent or unknown */
export function dashboardFilter(params: URLSearchParams): { range: TimeRange; env: Environment } {
  return {
    range: RANGES.find((r) => r === params.get('range')) ?? '24h',
    env: ENVS.find((e) => e === params.get('env')) ?? 'all',
  };
}

/** the tab a dashboard address names (`?tab=`), undefined when absent or unknown */
export const requestedTab = (params: URLSearchParams): PageTab | undefined =>
  TABS.find((x) => x === params.get('tab'));

/** the tab the page opens on without `?tab=`: Operations, or Service while no store is configured */
export const fallbackTab = (catalog: PanelCatalog): PageTab =>
  catalog.stores && !Object.values(catalog.stores).some(Boolean) ? 'service' : 'operations';

/** a tab's panels by datasource type, in catalog order: the page asks for each group in one batch */
export function groupByDatasource(panels: PanelDef[]): Map<Datasource, PanelDef[]> {
  const groups = new Map<Datasource, PanelDef[]>();
  for (const p of panels) groups.set(p.datasource, [...(groups.get(p.datasource) ?? []), p]);
  return groups;
}

/** a catalog requested early is used only this soon after it was asked for; later the page asks again */
const EARLY_MS = 10_000;

export interface FetchedCatalog {
  catalog: PanelCatalog;
  /** when it arrived: its query windows end about then */
  at: number;
}

let early: { key: string; requestedAt: number; answer: Promise<FetchedCatalog> } | null = null;

/** a first batch sent as soon as the early catalog arrived, for the page to take when it renders */
export interface EarlyBatch {
  /** the catalog it was made from: the page takes it only with that very catalog */
  catalog: PanelCatalog;
  datasource: Datasource;
  /** the ids of the panels it asks for, in order */
  ids: string;
  queries: PanelQuery[];
  answer: Promise<{ results: BatchResult[] }>;
}

let batches: EarlyBatch[] = [];

const idsOf = (panels: PanelDef[]) => panels.map((p) => p.id).join('\n');

/**
 * Requests the panel catalog as soon as an admin's navigation to the dashboard is known, while the
 * dashboard's code is still downloading, and as soon as the catalog arrives, the first batch of
 * each datasource type of the tab the page will open on (`tab`, or the one the catalog implies):
 * the page renders with its panels' data already on the way, instead of first asking for the
 * catalog and then, a few renders later, for the data (each a round trip on the critical path of
 * a navigation). Asking again for the same filter while a request is kept does nothing.
 */
export function requestCatalogEarly(range: TimeRange, env: Environment, tab?: PageTab): void {
  const key = `${range}|${env}`;
  if (early?.key === key && Date.now() - early.requestedAt < EARLY_MS) return;
  batches = [];
  const answer = getPanels(range, env).then((catalog) => {
    const at = Date.now();
    startBatches(catalog, tab ?? fallbackTab(catalog));
    return { catalog, at };
  });
  // a failure is the page's to show when it takes the answer; unhandled until then, it is not an error
  answer.catch(() => undefined);
  early = { key, requestedAt: Date.now(), answer };
}

function startBatches(catalog: PanelCatalog, tab: PageTab): void {
  if (tab === 'service') return;
  for (const [datasource, list] of groupByDatasource(catalog.panels.filter((p) => p.tab === tab))) {
    // the windows as the catalog gave them: the page's own first batch would slide them by ~0 ms
    const queries = list.map((p) => p.query);
    const answer = postBatch(datasource, queries);
    answer.catch(() => undefined);
    batches.push({ catalog, datasource, ids: idsOf(list), queries, answer });
  }
}

/** the early answer for this filter, once (null when none was asked for, another filter or too old) */
export function takeEarlyCatalog(range: TimeRange, env: Environment): Promise<FetchedCatalog> | null {
  const kept = early;
  early = null;
  if (!kept || kept.key !== `${range}|${env}` || Date.now() - kept.requestedAt >= EARLY_MS) return null;
  return kept.answer;
}

/**
 * The early first batch for these panels of this datasource, once: only when it was made from this
 * very catalog (the one `takeEarlyCatalog` gave the page) for the same panels; else null.
 */
export function takeEarlyBatch(
  catalog: PanelCatalog,
  datasource: Datasource,
  panels: PanelDef[],
): Pick<EarlyBatch, 'queries' | 'answer'> | null {
  const ids = idsOf(panels);
  const i = batches.findIndex((b) => b.catalog === catalog && b.datasource === datasource && b.ids === ids);
  if (i < 0) return null;
  const [taken] = batches.splice(i, 1);
  return taken!;
}
