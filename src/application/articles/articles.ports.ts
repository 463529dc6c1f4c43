import type { ArticleDetail, ArticleSort, ArticleSummary, SortOrder } from '../../domain/articles.js';
import type { Vector } from '../shared/embedding.js';

export interface ArticleFilter {
  topicId?: string;
  /** tag name */
  tag?: string;
  /** source display name */
  source?: string;
  /** only articles stored from this source (by id: a renamed source keeps its articles) */
  sourceId?: string;
  /**
   * search: websearch syntax over title, summary, content and the zh-TW translation, plus a
   * substring match (trigrams) of a plain query for CJK text and partial words
   */
  q?: string;
  /** only the favorites of this user */
  favoritesOf?: string;
  /** only the articles this user has not read */
  unreadFor?: string;
  /** only articles published (or, without a date, scraped) at or after this instant */
  since?: Date;
  /** only articles published (or, without a date, scraped) before this instant */
  until?: Date;
  /**
   * keyset paging in scraped_at order (then id): only the articles after this one in `order`
   * (the Reader API's continuation; stable while articles arrive or are marked read)
   */
  after?: { id: string; order: SortOrder };
  /** `work`: one row per work, its best version (published, else preprint, else earliest) */
  collapse?: 'work';
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
  /** the feed's own HTML as stored (untrusted: sanitised before it is served); null without one */
  rawHtml(id: string): Promise<string | null>;
  exists(id: string): Promise<boolean>;
  /** list items of these articles, in the order of `ids` (unknown ids left out) */
  byIds(ids: readonly string[], viewerId: string | null): Promise<ArticleSummary[]>;
  /**
   * ids and scrape times (microseconds since the epoch, as text) of up to `limit` articles
   * matching the filter, in scraped_at order (then id): the Reader API's item references
   */
  refs(filter: ArticleFilter, order: SortOrder, limit: number): Promise<ArticleRef[]>;
  /** the articles whose uuid begins with these 64 bits (16 hex digits each): hex → uuid */
  resolveItemIds(hexes: readonly string[]): Promise<Map<string, string>>;
}

export interface ArticleRef {
  id: string;
  scrapedUsec: string;
}

/** Per-user read state (article_reads). */
export interface ReadStateRepository {
  /** false when the article does not exist; marking twice is a no-op */
  mark(userId: string, articleId: string): Promise<boolean>;
  /** false when the article does not exist */
  unmark(userId: string, articleId: string): Promise<boolean>;
  /**
   * marks read up to `max` unread articles matching the filter, newest first: how many it marked,
   * and the batch's name (null when none) that `unmarkBatch` takes to make them unread again
   */
  markMatching(
    userId: string,
    filter: ArticleFilter,
    max: number,
  ): Promise<{ marked: number; batch: string | null }>;
  /** how many articles `markMatching` would mark now (at most `max`) */
  countMatching(userId: string, filter: ArticleFilter, max: number): Promise<number>;
  /** makes the articles of one `markMatching` batch unread again; how many */
  unmarkBatch(userId: string, batch: string): Promise<number>;
  /** topics with at least one unread article */
  unreadCounts(userId: string): Promise<{ topicId: string; unread: number }[]>;
  /**
   * per source name (what a list's `source` filter matches): its unread articles, with at least one,
   * and the crawl time of its newest article (unix microseconds, as text)
   */
  unreadBySource(userId: string): Promise<{ sourceId: string; unread: number; newestUsec: string }[]>;
}

/** Turns a feed's HTML into HTML safe to put in our pages (relative URLs resolved against baseUrl). */
export interface HtmlSanitizer {
  sanitize(html: string, baseUrl: string): Promise<string>;
}

/**
 * A sanitizer that keeps its output under a caller's key which changes whenever the input does
 * (an article's row version): a kept key reads no input at all.
 */
export interface KeyedHtmlSanitizer extends HtmlSanitizer {
  sanitizeKeyed(key: string, baseUrl: string, read: () => Promise<string | null>): Promise<string | null>;
}

/** Views counted in the cache and not yet flushed into the stored count. */
export interface PendingViews {
  pending(articleId: string): Promise<number>;
  /** the same for a page of articles, in one round trip; only the articles with pending views */
  pendingMany(articleIds: readonly string[]): Promise<Map<string, number>>;
}

/** A recent article of a topic with its stored embedding (null until first computed). */
export interface EmbeddedArticle {
  id: string;
  /** what is embedded: title and summary */
  text: string;
  vector: Vector | null;
}

/** A topic's most recently scraped article: a new article in the topic changes it. */
export interface TopicHead {
  scrapedAt: Date;
  id: string;
}

export interface ArticleEmbeddingStore {
  /** the article with its topic; null when it does not exist */
  one(articleId: string): Promise<{ topicId: string; article: EmbeddedArticle } | null>;
  /**
   * The article's topic and that topic's newest article (scraped_at, then id), in one statement;
   * null when the article does not exist.
   */
  locate(articleId: string): Promise<{ topicId: string; head: TopicHead | null } | null>;
  /** the topic's `limit` most recently scraped articles, newest first; only those after `after` when given */
  recent(topicId: string, limit: number, after?: TopicHead): Promise<EmbeddedArticle[]>;
  save(vectors: { articleId: string; vector: Vector }[]): Promise<void>;
}

/** The enabled metric keys of the catalog (metric_definitions, owned by the metrics area). */
export interface EnabledMetrics {
  /** `fresh`: read now, not what a cache kept (a key not among the kept ones may be new) */
  enabledKeys(opts?: { fresh?: boolean }): Promise<string[]>;
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
  topic(
    id: string,
  ): Promise<{ id: string; name: string; description: string | null; isActive: boolean } | null>;
}

/** The topic's weekly reports, newest first (the reports area's read side). */
export interface ReportFeedSource {
  list(q: { topicId: string; limit: number; offset: number }): Promise<{
    items: { id: string; title: string; summary_text: string; week_start_date: string; created_at: string }[];
  }>;
}
