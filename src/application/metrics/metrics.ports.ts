import type { ArticleIdentifiers, MetricDefinition } from '../../domain/metrics.js';

/** How many articles (of a topic, or all) have a value of one metric. */
export interface MetricCoverage {
  articles: number;
  withValue: number;
  /** articles never looked up yet that carry an identifier: a value may still come */
  pending: number;
}

export interface MetricDefinitionRepository {
  /** every catalog entry, in extraction-priority order */
  list(opts?: { enabledOnly?: boolean }): Promise<MetricDefinition[]>;
  coverage(metricKey: string, topicId: string | null): Promise<MetricCoverage>;
  update(
    id: string,
    patch: { enabled?: boolean; iconName?: string | null },
  ): Promise<MetricDefinition | null>;
}

/** One citation API (Semantic Scholar, OpenAlex, Crossref). `null`: the API has no value (404 or a missing field). */
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
  /**
   * Articles stored after the cursor (scraped_at, id), not older than `since`, that carry an
   * identifier a citation source could use and have never been looked up for one of the keys
   * (no row): in (scraped_at, id) order, at most `limit`. `stale` holds only those missing keys.
   */
  arrivals(
    metricKeys: string[],
    after: ArrivalCursor,
    since: Date,
    limit: number,
  ): Promise<(RefreshCandidate & { scrapedAt: Date })[]>;
  /** where the last lookup on arrival stopped; null before the first */
  arrivalCursor(): Promise<ArrivalCursor | null>;
  setArrivalCursor(cursor: ArrivalCursor): Promise<void>;
}

/** A position in the order articles were stored: (scraped_at, id). */
export interface ArrivalCursor {
  at: Date;
  id: string;
}
