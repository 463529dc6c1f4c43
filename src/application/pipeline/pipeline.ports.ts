import type { Provider, Source, SourceFetch, SourceKind } from '../../domain/catalog.js';
import type { DedupKeys, DuplicateSkip, Enrichment, KnownKeys, TopicLink } from './dedup.js';
import type { ArticleStatus } from '../../domain/article-status.js';
import type { ArticleRef, PipelineCompletedEvent } from './pipeline.events.js';
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

/** What a feed read needs of its source: where, what kind, and the validators of the last read. */
export interface FeedSourceRef {
  url: string;
  kind: SourceKind;
  etag: string | null;
  lastModified: string | null;
}

/**
 * Fetches and parses a feed with a conditional GET (the source's stored ETag / Last-Modified).
 * `signal` abandons a read (it throws the signal's reason), e.g. when the process stops.
 */
export interface FeedReader {
  read(source: FeedSourceRef, signal?: AbortSignal): Promise<FeedReadResult>;
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
  read(url: string, signal?: AbortSignal): Promise<{ title: string | null; text: string }>;
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
  /** by locale; the zh-TW one may come with the analysis (one model call for both) */
  translations: Record<string, { title: string; summary: string | null }> | null;
  /** the steps of its flow already done are skipped (a job that runs again) */
  processingStatus: ArticleStatus;
}

export interface ArticlePatch {
  content?: string | null;
  language?: string | null;
  summary?: string | null;
  processingStatus?: ArticleStatus;
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
  /** these sources' title-only articles whose page is due another try (newest first) */
  titleOnly(sourceIds: string[], limit: number): Promise<TitleOnlyArticle[]>;
  /**
   * Its page was read at last: the text becomes the article's content and its flow runs again in
   * this run (status `new`, counted pending in the run). False when it is no longer title-only.
   */
  reopenWithPage(id: string, runId: string, text: string): Promise<boolean>;
  /** one more try failed; after PAGE_TRIES the article stays title-only */
  pageMissed(id: string): Promise<void>;
  /** the stored articles among these ids (one read for a batch of jobs) */
  getMany(ids: string[]): Promise<PipelineArticle[]>;
  /**
   * Writes the patch; one that sets a status is written only over a pending status (an article
   * already final is left as it is). A patch that gives the article its final status counts it as
   * done in its run, in the same
   * statement: `runEnded` is true for the one write that leaves the run with nothing pending.
   */
  update(id: string, patch: ArticlePatch): Promise<ArticleWrite>;
}

/**
 * A stored article whose page could not be read when it was stored and whose feed gave no text (a
 * tracking pixel is all some feeds carry): it is listed title-only, and later runs read its page
 * again, up to PAGE_TRIES times in all.
 */
export interface TitleOnlyArticle {
  id: string;
  url: string;
  topicId: string;
  source: string;
}

export const PAGE_TRIES = 5;

export interface ArticleWrite {
  /** this write was the run's last pending article: the caller ends the run */
  runEnded: boolean;
}

/** Articles as the queue's sweep and a run's end see them. */
export interface ArticleStates {
  /** the run's articles by outcome (domain countsOfStatus); `pending` have not reached a final state */
  summarize(runId: string): Promise<{ pending: number; counts: Record<string, number> }>;
  /**
   * articles not in a final state, oldest first (the sweep gives each a job), but those a live run
   * stored in the last minute: its process sends their jobs itself
   */
  unfinished(limit: number): Promise<ArticleRef[]>;
}

export type { RunStatus } from '../../domain/runs.js';
export type { RunRecord } from '../runs/runs.ports.js';

/** The runs of the scraper: the generic run records plus the duplicates each run skipped. */
export interface RunStore extends RunRepository {
  recordSkips(runId: string, skips: SkipRecord[]): Promise<void>;
  /**
   * The run's pending-article count, kept in its own row: every stored article of the run adds one
   * (in the statement that inserts it) and its final status takes it off again (in the statement
   * that writes it). `holdArticles` adds one more for the publish stage itself, so that articles
   * finished while later ones are still being stored cannot end the run early.
   */
  holdArticles(runId: string): Promise<void>;
  /**
   * The publish stage is done: stores the run's stage counts and takes its hold off. True when
   * nothing is left pending (no new article, or all of them already done): the caller ends the run.
   */
  releaseArticles(runId: string, counts: Record<string, number>): Promise<boolean>;
  /**
   * Takes the right to end the run, once: when `whenDone`, only if nothing is pending (its last
   * article is done); else whatever is pending (a failed or interrupted run). False when the run
   * is not open or another caller took it: of the processes ending a run at once, one goes on.
   */
  claimEnd(runId: string, whenDone: boolean): Promise<boolean>;
  /** open scrape runs with articles, none pending and nobody ending them: their last job could not */
  endedOpen(): Promise<string[]>;
}

/**
 * Word of finished runs from every process on the database (PostgreSQL LISTEN/NOTIFY): a run's own
 * process hears that another process's worker wrote its end without reading the record again.
 */
export interface RunEndSignals {
  /**
   * `heard(runId)` for each run finished from now on; `heard(null)` when word may have been missed
   * (the listening connection was lost meanwhile). Resolves once listening, to the function that stops.
   */
  listen(heard: (runId: string | null) => void): Promise<() => Promise<void>>;
}

export interface ProviderLookup {
  findActive(type: Provider['type']): Promise<Provider | null>;
}

/** Pushes the run's figures (duration, counts per stage, failures) to the metrics store. */
export interface PipelineMetrics {
  recordRun(event: PipelineCompletedEvent): Promise<void>;
}
