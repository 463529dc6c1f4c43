import { getPanels } from './monitor';
import type { Environment, PanelCatalog, TimeRange } from '../model/types';

export const RANGES: TimeRange[] = ['6h', '24h', '3d', '7d'];
export const ENVS: Environment[] = ['all', 'local', 'production'];

/** the global filter a dashboard address asks for: `?range=` and `?env=`, defaults when absent or unknown */
export function dashboardFilter(params: URLSearchParams): { range: TimeRange; env: Environment } {
  return {
    range: RANGES.find((r) => r === params.get('range')) ?? '24h',
    env: ENVS.find((e) => e === params.get('env')) ?? 'all',
  };
}

/** a catalog requested early is used only this soon after it was asked for; later the page asks again */
const EARLY_MS = 10_000;

export interface FetchedCatalog {
  catalog: PanelCatalog;
  /** when it arrived: its query windows end about then */
  at: number;
}

let early: { key: string; requestedAt: number; answer: Promise<FetchedCatalog> } | null = null;

/**
 * Requests the panel catalog as soon as an admin's navigation to the dashboard is known, while the
 * dashboard's code is still downloading: the page then starts its first batch as soon as it
 * renders, instead of first asking for the catalog (a round trip and a render later). Asking
 * again for the same filter while a request is kept does nothing.
 */
export function requestCatalogEarly(range: TimeRange, env: Environment): void {
  const key = `${range}|${env}`;
  if (early?.key === key && Date.now() - early.requestedAt < EARLY_MS) return;
  const answer = getPanels(range, env).then((catalog) => ({ catalog, at: Date.now() }));
  // a failure is the page's to show when it takes the answer; unhandled until then, it is not an error
  answer.catch(() => undefined);
  early = { key, requestedAt: Date.now(), answer };
}

/** the early answer for this filter, once (null when none was asked for, another filter or too old) */
export function takeEarlyCatalog(range: TimeRange, env: Environment): Promise<FetchedCatalog> | null {
  const kept = early;
  early = null;
  if (!kept || kept.key !== `${range}|${env}` || Date.now() - kept.requestedAt >= EARLY_MS) return null;
  return kept.answer;
}
