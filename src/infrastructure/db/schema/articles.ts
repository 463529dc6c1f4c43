import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
