import type { ArticleIdentifiers, MetricDefinition } from '../../domain/metrics.js';

export interface MetricDefinitionRepository {
  /** every catalog entry, in extraction-priority order */
  list(opts?: { enabledOnly?: boolean }): Promise<MetricDefinition[]>;
  update(
    id: string,
    patch: { enabled?: boolean; iconName?: string | null },
  ): Promise<MetricDefinition | null>;
}

/** One citation API (DESIGN.md §4). `null`: the API has no value (404 or a missing field). */
export interface CitationSource {
  readonly provider: string;
  /** whether the article has an identifier this source can look up */
  canLookUp(ids: ArticleIdentifiers): boolean;
  /** throws when the API keeps failing after its retries */
  citations(ids: ArticleIdentifiers): Promise<number | null>;
  /**
   * Many articles in few requests (a batch endpoint), one answer per entry of `list` in its order;
   * throws like `citations`. Only sources with such an endpoint have it.
   */
  citationsBatch?(list: ArticleIdentifiers[]): Promise<(number | null)[]>;
}

export interface RefreshDefinition {
  metricKey: string;
  /** providers, in extraction-priority order */
  providers: string[];
}

export interface RefreshCandidate {
  id: string;
  doi: string | null;
  arxivId: string | null;
  url: string | null;
  metadata: Record<string, unknown>;
  /** the metric keys to refresh (missing or stale) with their stored value (undefined: no row) */
  stale: Record<string, number | null | undefined>;
}

export interface MetricValueWrite {
  articleId: string;
  metricKey: string;
  value: number | null;
  source: string | null;
  refreshedAt: Date;
}

export interface MetricRefreshStore {
  enabledDefinitions(): Promise<RefreshDefinition[]>;
  /** how many articles have no value, or a value refreshed before `staleBefore`, for one of the keys */
  countCandidates(metricKeys: string[], staleBefore: Date): Promise<number>;
  /**
   * One page of those articles in id order, starting after the id `after` (null: from the start),
   * so that a run over a million articles never holds more than a page.
   */
  candidates(
    metricKeys: string[],
    staleBefore: Date,
    page: { after: string | null; limit: number },
  ): Promise<RefreshCandidate[]>;
  upsert(values: MetricValueWrite[]): Promise<void>;
}
