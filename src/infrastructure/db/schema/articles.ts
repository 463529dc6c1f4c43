import {
  boolean,
  doublePrecision,
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
import { sources, topics } from './catalog.js';

export interface ArticleTranslation {
  title: string;
  summary: string | null;
}

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
    /** null until the first flush: never-viewed rows sort as "without a value" */
    viewCount: integer('view_count'),
    processingStatus: text('processing_status').notNull().default('new'),
    processingError: text('processing_error'),
    runId: uuid('run_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('articles_topic_idx').on(t.topicId),
    index('articles_doi_idx').on(t.doi),
    index('articles_arxiv_idx').on(t.arxivId),
    index('articles_normalized_title_idx').on(t.normalizedTitle),
  ],
);

export interface ExtractionSource {
  /** e.g. semantic_scholar, openalex, crossref */
  provider: string;
  priority: number;
}

export const metricDefinitions = pgTable('metric_definitions', {
  id: id(),
  metricKey: text('metric_key').notNull().unique(),
  labelI18nKey: text('label_i18n_key').notNull(),
  iconName: text('icon_name'),
  formatHint: text('format_hint').notNull().default('integer'),
  unit: text('unit').notNull().default(''),
  enabled: boolean('enabled').notNull().default(true),
  /** internal: never exposed. Lower runs first; the catalog is ordered by it. */
  priority: integer('priority').notNull().default(100),
  extractionSources: jsonb('extraction_sources').$type<ExtractionSource[]>().notNull().default([]),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const articleMetrics = pgTable(
  'article_metrics',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    metricKey: text('metric_key').notNull(),
    value: doublePrecision('value'),
    /** which extraction source produced the value (internal) */
    source: text('source'),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.metricKey] }),
    index('article_metrics_key_value_idx').on(t.metricKey, t.value),
  ],
);
