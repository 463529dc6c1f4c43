import type { Provider, Source, SourceKind } from '../../domain/catalog.js';
import type { DedupKeys, DuplicateSkip, KnownKeys } from './dedup.js';
import type { PipelineCompletedEvent } from './pipeline.events.js';
import type { RunRepository } from '../runs/runs.ports.js';

/** One entry of a feed, as the parser found it. */
export interface FeedEntry {
  url: string;
  title: string;
  summary: string | null;
  /** HTML or text of the full entry when the feed carries it */
  content: string | null;
  author: string | null;
  publishedAt: Date | null;
  doi: string | null;
  arxivId: string | null;
  categories: string[];
}

export type FeedReadResult =
  | { notModified: true }
  | { notModified: false; entries: FeedEntry[]; etag: string | null; lastModified: string | null };

/** Fetches and parses a feed with a conditional GET (the source's stored ETag / Last-Modified). */
export interface FeedReader {
  read(source: {
    url: string;
    kind: SourceKind;
    etag: string | null;
    lastModified: string | null;
  }): Promise<FeedReadResult>;
}

/** Reads an article page when its feed entry carries no text. */
export interface PageReader {
  read(url: string): Promise<{ title: string | null; text: string }>;
}

export interface SourceStore {
  listEnabled(): Promise<Source[]>;
  recordFetch(
    id: string,
    patch: {
      etag?: string | null;
      lastModified?: string | null;
      lastFetchedAt: Date;
      lastError: string | null;
    },
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
}

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
  /** inserts; an article whose canonical URL appeared meanwhile is left out of the answer */
  insertMany(rows: NewArticle[]): Promise<{ id: string; canonicalUrl: string }[]>;
  get(id: string): Promise<PipelineArticle | null>;
  update(id: string, patch: ArticlePatch): Promise<void>;
}

export type { RunStatus } from '../../domain/runs.js';
export type { RunRecord } from '../runs/runs.ports.js';

/** The runs of the scraper: the generic run records plus the duplicates each run skipped. */
export interface RunStore extends RunRepository {
  recordSkips(runId: string, skips: DuplicateSkip[]): Promise<void>;
}

export interface ProviderLookup {
  findActive(type: Provider['type']): Promise<Provider | null>;
}

/** Pushes the run's figures (duration, counts per stage, failures) to the metrics store. */
export interface PipelineMetrics {
  recordRun(event: PipelineCompletedEvent): Promise<void>;
}
