import type { ArticleDetail, ArticleSort, ArticleSummary, SortOrder } from '../../domain/articles.js';
import type { Vector } from '../shared/embedding.js';

export interface ArticleFilter {
  topicId?: string;
  /** tag name */
  tag?: string;
  /** source display name */
  source?: string;
  /**
   * search: websearch syntax over title, summary, content and the zh-TW translation, plus a
   * substring match (trigrams) of a plain query for CJK text and partial words
   */
  q?: string;
  /** only the favorites of this user */
  favoritesOf?: string;
  /** only the articles this user has not read */
  unreadFor?: string;
}

export interface ArticleListQuery {
  filter: ArticleFilter;
  sort: ArticleSort;
  order: SortOrder;
  limit: number;
  offset: number;
  /** the caller, for is_favorited */
  viewerId: string | null;
}

export interface ArticlePage {
  items: ArticleSummary[];
  total: number;
}

export interface ArticleReadRepository {
  list(query: ArticleListQuery): Promise<ArticlePage>;
  /** `metrics` of both hold the enabled catalog metrics only, read in the same statement */
  get(id: string, viewerId: string | null): Promise<ArticleDetail | null>;
  exists(id: string): Promise<boolean>;
  /** list items of these articles, in the order of `ids` (unknown ids left out) */
  byIds(ids: readonly string[], viewerId: string | null): Promise<ArticleSummary[]>;
}

/** Per-user read state (article_reads). */
export interface ReadStateRepository {
  /** false when the article does not exist; marking twice is a no-op */
  mark(userId: string, articleId: string): Promise<boolean>;
  /** false when the article does not exist */
  unmark(userId: string, articleId: string): Promise<boolean>;
  /** marks read up to `max` unread articles matching the filter, newest first; how many it marked */
  markMatching(userId: string, filter: ArticleFilter, max: number): Promise<number>;
  /** topics with at least one unread article */
  unreadCounts(userId: string): Promise<{ topicId: string; unread: number }[]>;
}

/** Turns a feed's HTML into HTML safe to put in our pages (relative URLs resolved against baseUrl). */
export interface HtmlSanitizer {
  sanitize(html: string, baseUrl: string): Promise<string>;
}

/** Views counted in the cache and not yet flushed into the stored count. */
export interface PendingViews {
  pending(articleId: string): Promise<number>;
}

/** A recent article of a topic with its stored embedding (null until first computed). */
export interface EmbeddedArticle {
  id: string;
  /** what is embedded: title and summary */
  text: string;
  vector: Vector | null;
}

export interface ArticleEmbeddingStore {
  /** the article with its topic; null when it does not exist */
  one(articleId: string): Promise<{ topicId: string; article: EmbeddedArticle } | null>;
  /** the topic's `limit` most recently scraped articles */
  recent(topicId: string, limit: number): Promise<EmbeddedArticle[]>;
  save(vectors: { articleId: string; vector: Vector }[]): Promise<void>;
}

/** The enabled metric keys of the catalog (metric_definitions, owned by the metrics area). */
export interface EnabledMetrics {
  enabledKeys(): Promise<string[]>;
}

export interface FavoriteRepository {
  list(userId: string): Promise<string[]>;
  /** 'created' | 'exists' for a known article, 'no_article' when the article does not exist */
  add(userId: string, articleId: string): Promise<'created' | 'exists' | 'no_article'>;
  remove(userId: string, articleId: string): Promise<void>;
}

/** An Atom document (RFC 4287) before it is written out. */
export interface AtomFeed {
  /** absolute IRI, stable */
  id: string;
  title: string;
  subtitle?: string;
  updated: Date;
  /** rel="self" */
  selfUrl: string;
  /** rel="alternate": the page showing the same list */
  pageUrl: string;
  entries: AtomEntry[];
}

export interface AtomEntry {
  id: string;
  title: string;
  url: string;
  updated: Date;
  published?: Date;
  /** plain text */
  summary?: string;
  /** sanitised HTML */
  contentHtml?: string;
  authors: string[];
  categories: string[];
}

export interface AtomWriter {
  write(feed: AtomFeed): Promise<string>;
}

export interface TopicLookup {
  topic(id: string): Promise<{ id: string; name: string; description: string | null } | null>;
}

/** The topic's weekly reports, newest first (the reports area's read side). */
export interface ReportFeedSource {
  list(q: { topicId: string; limit: number; offset: number }): Promise<{
    items: { id: string; title: string; summary_text: string; week_start_date: string; created_at: string }[];
  }>;
}
