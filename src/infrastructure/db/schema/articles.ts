import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import type { ArticleStatus } from '../../../domain/article-status.js';
import { sources, topics } from './catalog.js';

export interface ArticleTranslation {
  title: string;
  summary: string | null;
}

/** PostgreSQL's tsvector, read only through SQL (never selected into a row object). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Full-text document of GET /articles?q= (docs/decisions/0037-reader-search.md): title (A), summary and
 * the zh-TW translation (B), the first 100k characters of the content (C). English stemming for the
 * original text; the translation uses the `simple` configuration (no stemming, no stop words). CJK
 * text also goes in as overlapping character bigrams (`cjk_bigrams`, created by the migration), so a
 * two-character Chinese word, which has no trigram of its own, is one index lookup too.
 */
export const SEARCH_VECTOR_SQL =
  sql.raw(`setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
  || setweight(to_tsvector('english'::regconfig, coalesce(summary, '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, coalesce(translations->'zh-TW'->>'title', '') || ' ' || coalesce(translations->'zh-TW'->>'summary', '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, cjk_bigrams(coalesce(title, '') || ' ' || left(coalesce(summary, ''), 1000) || ' ' || coalesce(translations->'zh-TW'->>'title', '') || ' ' || left(coalesce(translations->'zh-TW'->>'summary', ''), 1000))), 'B')
  || setweight(to_tsvector('english'::regconfig, left(coalesce(content, ''), 100000)), 'C')`);

/**
 * The text a substring search (a query with a run of 3+ CJK characters) is checked against: title,
 * summary, the zh-TW title and summary, the first 1,000 characters of the content. An IMMUTABLE SQL
 * function created by migration 0004.
 */
export const SEARCH_TEXT_SQL = sql.raw('article_search_text(a.title, a.summary, a.translations, a.content)');

/**
 * What the trigram index covers: the same text with every character below U+2E80 made a space,
 * except Hangul Jamo (U+1100-11FF), so that the CJK runs (Han, kana, Hangul) stay and the English
 * around them goes (migration 0015). A query's CJK run is found through it, then the match is
 * checked on `SEARCH_TEXT_SQL` (article-search.sql.ts): the index holds the trigrams of a few
 * hundred CJK characters an article instead of ~1,500 characters of text, whose upkeep was about a
 * quarter of the embedded database's time in the pipeline
 * (docs/decisions/0169-trigrams-of-cjk-runs-only.md).
 */
export const SEARCH_CJK_SQL = sql.raw('article_search_cjk(a.title, a.summary, a.translations, a.content)');

export const articles = pgTable(
  'articles',
  {
    id: id(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id').references(() => sources.id, { onDelete: 'set null' }),
    /** source display name, kept on the row so that sorting by source needs no join */
    source: text('source').notNull(),
    url: text('url').notNull(),
    canonicalUrl: text('canonical_url').notNull().unique(),
    title: text('title').notNull(),
    normalizedTitle: text('normalized_title').notNull(),
    author: text('author'),
    content: text('content'),
    summary: text('summary'),
    language: text('language'),
    doi: text('doi'),
    arxivId: text('arxiv_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    translations: jsonb('translations').$type<Record<string, ArticleTranslation>>().notNull().default({}),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    scrapedAt: timestamp('scraped_at', { withTimezone: true }).notNull().defaultNow(),
    processingStatus: text('processing_status').$type<ArticleStatus>().notNull().default('new'),
    processingError: text('processing_error'),
    runId: uuid('run_id'),
    /** its work when it shares one with other articles; null: a work of its own, of the article's id */
    workId: uuid('work_id'),
    searchVector: tsvector('search_vector').generatedAlwaysAs(SEARCH_VECTOR_SQL),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('articles_doi_idx').on(t.doi),
    index('articles_arxiv_idx').on(t.arxivId),
    index('articles_normalized_title_idx').on(t.normalizedTitle),
    // Sort indexes of GET /articles (docs/decisions/0030-articles-list-query-shape.md): every sort key
    // ends with id so that ties are deterministic and a page is one ordered index range.
    // NOT NULL keys: one index serves both directions (backward scan for desc).
    index('articles_scraped_at_idx').on(t.scrapedAt, t.id),
    // also the topic filter and the foreign-key lookups (a plain topic_id index would only add
    // write cost to every insert)
    index('articles_topic_scraped_at_idx').on(t.topicId, t.scrapedAt, t.id),
    index('articles_title_idx').on(t.title, t.id),
    index('articles_source_idx').on(t.source, t.id),
    // Nullable keys sort NULLS LAST in both directions: a backward scan would put nulls first, so
    // each direction has its own index.
    index('articles_published_at_asc_idx').on(t.publishedAt.asc().nullsLast(), t.id.asc()),
    index('articles_published_at_desc_idx').on(t.publishedAt.desc().nullsLast(), t.id.desc()),
    // the job queue: a run's outcome is read from its articles; the start-up sweep reads the
    // unfinished ones (few: a partial index)
    index('articles_run_idx').on(t.runId),
    // the members of a work (few articles have one: a partial index)
    index('articles_work_idx')
      .on(t.workId)
      .where(sql`${t.workId} is not null`),
    index('articles_unfinished_idx')
      .on(t.scrapedAt)
      .where(sql`${t.processingStatus} in ('new', 'analyzed')`),
    // the title-only articles whose page later runs read again (few: a partial index)
    index('articles_page_missing_idx')
      .on(t.sourceId, t.scrapedAt)
      .where(sql`${t.metadata} ? 'page_missing'`),
    // GET /articles?q=: words through the tsvector, CJK text and partial words through trigrams
    index('articles_search_vector_idx').using('gin', t.searchVector),
    index('articles_search_cjk_trgm_idx').using(
      'gin',
      sql`article_search_cjk(${t.title}, ${t.summary}, ${t.translations}, ${t.content}) gin_trgm_ops`,
    ),
  ],
);

/**
 * Stored view counts (the `view_count` of the API), one narrow row per viewed article. They live
 * apart from `articles` because the view flush rewrites thousands of them at a time: an UPDATE of
 * an articles row would write a new version of the wide row and an entry in each of its indexes,
 * here it is a two-integer tuple and two index entries (docs/decisions/0032-view-counts-table.md).
 * No row = never viewed: shown as 0, sorted as "without a value".
 */
export const articleViewCounts = pgTable(
  'article_view_counts',
  {
    articleId: uuid('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    viewCount: integer('view_count').notNull(),
  },
  // sort=view_count: (view_count, article_id) scanned forward for asc and backward for desc
  (t) => [index('article_view_counts_sort_idx').on(t.viewCount, t.articleId)],
);

/**
 * The topics an article belongs to (docs/decisions/0035-topics-and-duplicates.md). One article row per
 * item, whatever the number of feeds that carry it, so views, favorites and metrics are never split
 * between copies; `articles.topic_id` / `source_id` stay the primary topic and source (the first
 * seen), and every topic whose sources carried the item has a row here, the primary one included
 * (written by the `article_topics_primary` trigger for every insert into articles, so no writer
 * can forget it). The topic filter of GET /articles and the weekly report inputs read this table.
 */
export const articleTopics = pgTable(
  'article_topics',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    /** the source of that topic that carried the item first */
    sourceId: uuid('source_id').references(() => sources.id, { onDelete: 'set null' }),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // (article_id, topic_id): the semi-join probe of the topic filter, from the sort index's rows
    primaryKey({ columns: [t.articleId, t.topicId] }),
    // (topic_id, article_id): a topic's articles, when the topic is small enough to start from it
    index('article_topics_topic_idx').on(t.topicId, t.articleId),
  ],
);
