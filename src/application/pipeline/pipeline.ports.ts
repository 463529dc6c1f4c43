import type { Provider, Source, SourceFetch, SourceKind } from '../../domain/catalog.js';
import type { DedupKeys, DuplicateSkip, Enrichment, KnownKeys, TopicLink } from './dedup.js';
import type { PipelineCompletedEvent } from './pipeline.events.js';
import type { RunRepository } from '../runs/runs.ports.js';

/** One entry of a feed, as the parser found it. */
export interface FeedEntry {
  url: string;
  title: string;
  summary: string | null;
  /** HTML or text of the full entry when the feed carries it */
  content: string | null;
  /** the entry's own markup (its content, else its HTML description) for the reader view */
  html?: string | null;
  author: string | null;
  publishedAt: Date | null;
  doi: string | null;
  arxivId: string | null;
  categories: string[];
}

export type FeedReadResult =
  | { notModified: true; status?: number }
  | {
      notModified: false;
      entries: FeedEntry[];
      etag: string | null;
      lastModified: string | null;
      /** the HTTP status of the answer (for the source's fetch history) */
      status?: number;
    };

/** Fetches and parses a feed with a conditional GET (the source's stored ETag / Last-Modified). */
export interface FeedReader {
  read(source: {
    url: string;
    kind: SourceKind;
    etag: string | null;
    lastModified: string | null;
  }): Promise<FeedReadResult>;
}

/**
 * An outbound fetch the service would not make: the URL came from feed content and its host
 * resolves to a loopback, private, link-local or otherwise non-public address (SSRF). The fetch
 * stage counts it as `fetch_refused` and logs the reason per article.
 */
export class FetchRefusedError extends Error {
  readonly code = 'FETCH.REFUSED';
  /** the admin's fetch history names it (feedProblemOf) */
  readonly problem = 'refused';
  constructor(message: string) {
    super(message);
    this.name = 'FetchRefusedError';
  }
}

/** Reads an article page when its feed entry carries no text; throws FetchRefusedError (SSRF). */
export interface PageReader {
  read(url: string): Promise<{ title: string | null; text: string }>;
}

/**
 * Which sources a run reads: every enabled one (admin and CLI runs), the enabled ones that are due
 * by their fetch interval (the scheduled run), or one source, enabled or not ("Fetch now").
 */
export type RunScope = { kind: 'all' } | { kind: 'due' } | { kind: 'source'; sourceId: string };

/** A fetch result as the discover stage writes it; the item counts follow after dedup and publish. */
export type NewSourceFetch = Omit<SourceFetch, 'id'>;

export interface SourceStore {
  listEnabled(): Promise<Source[]>;
  get(id: string): Promise<Source | null>;
  recordFetch(
    id: string,
    patch: {
      etag?: string | null;
      lastModified?: string | null;
      lastFetchedAt: Date;
      lastError: string | null;
    },
  ): Promise<void>;
  /** one row per source read; the oldest beyond SOURCE_FETCHES_KEPT per source are deleted */
  addFetchResults(rows: NewSourceFetch[]): Promise<void>;
  /**
   * Fills the run's fetch results still without the figure: `counts` by source id, 0 for the
   * sources it does not name.
   */
  setFetchCounts(
    runId: string,
    field: 'itemsNew' | 'itemsDuplicate',
    counts: Map<string, number>,
  ): Promise<void>;
}

export interface NewArticle extends DedupKeys {
  topicId: string;
  sourceId: string;
  source: string;
  url: string;
  title: string;
  author: string | null;
  content: string | null;
  publishedAt: Date | null;
  metadata: Record<string, unknown>;
  runId: string;
  /** other topics whose sources carried the same item in this run (linked when it is stored) */
  alsoIn?: { topicId: string; sourceId: string | null }[];
}

export interface RefusedArticle {
  url: string;
  canonicalUrl: string;
  /** why the database refused it, control characters removed */
  reason: string;
}

export interface InsertOutcome {
  inserted: { id: string; canonicalUrl: string }[];
  refused: RefusedArticle[];
}

/** A skipped item as recorded for the run: a duplicate, or an item the store refused. */
export type SkipRecord =
  DuplicateSkip | { url: string; reason: 'refused'; duplicateOf: null; detail: string };

export interface PipelineArticle {
  id: string;
  topicId: string;
  source: string;
  url: string;
  title: string;
  content: string | null;
  summary: string | null;
  language: string | null;
  metadata: Record<string, unknown>;
  /** `new` when absent (an article just stored); the handlers skip the steps already done */
  processingStatus?: string;
}

export interface ArticlePatch {
  content?: string | null;
  language?: string | null;
  summary?: string | null;
  processingStatus?: string;
  processingError?: string | null;
  /** merged into the stored translations by locale */
  translations?: Record<string, { title: string; summary: string | null }>;
  /** merged into the stored metadata */
  metadata?: Record<string, unknown>;
}

export interface ArticleStore {
  /** stored articles sharing any of these keys, as key → canonical URL maps */
  knownKeys(keys: {
    urls: string[];
    dois: string[];
    arxivIds: string[];
    titles: string[];
  }): Promise<KnownKeys>;
  /**
   * Inserts; an article whose canonical URL appeared meanwhile is left out of the answer. A row
   * the database refuses (a value it cannot store) is refused alone, with the database's reason;
   * every other row is still inserted.
   */
  insertMany(rows: NewArticle[]): Promise<InsertOutcome>;
  /**
   * Adds topics to stored articles (by canonical URL); a link already there is kept as it is.
   * Answers how many links were added.
   */
  linkTopics(links: TopicLink[]): Promise<number>;
  /**
   * Fills a stored article's DOI, arXiv id or publication date where it has none; an article
   * that gains an identifier becomes due for its metric refresh. Answers how many were changed.
   */
  enrich(enrichments: Enrichment[]): Promise<number>;
  get(id: string): Promise<PipelineArticle | null>;
  update(id: string, patch: ArticlePatch): Promise<void>;
}

export type { RunStatus } from '../../domain/runs.js';
export type { RunRecord } from '../runs/runs.ports.js';

/** The runs of the scraper: the generic run records plus the duplicates each run skipped. */
export interface RunStore extends RunRepository {
  recordSkips(runId: string, skips: SkipRecord[]): Promise<void>;
}

export interface ProviderLookup {
  findActive(type: Provider['type']): Promise<Provider | null>;
}

/** Pushes the run's figures (duration, counts per stage, failures) to the metrics store. */
export interface PipelineMetrics {
  recordRun(event: PipelineCompletedEvent): Promise<void>;
}
