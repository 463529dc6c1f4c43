import { index, jsonb, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { realArray } from './common.js';
import { articles } from './articles.js';
import { users } from './users.js';

/**
 * Read state: one row per (user, read article); no row = unread. The primary key leads with the
 * user, so "is this page's article read by me" and the unread_only anti-join are one index probe
 * per article (docs/decisions/0038-read-state.md).
 */
export const articleReads = pgTable(
  'article_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.articleId] }),
    // article deletes cascade through it
    index('article_reads_article_idx').on(t.articleId),
  ],
);

/**
 * Embeddings of articles (title and summary) for "similar articles", filled on first use for the
 * bounded recent window of a topic; dense (`embedding`) or sparse, like the tag embeddings.
 */
export const articleEmbeddings = pgTable('article_embeddings', {
  articleId: uuid('article_id')
    .primaryKey()
    .references(() => articles.id, { onDelete: 'cascade' }),
  embedding: realArray('embedding'),
  sparseEmbedding: jsonb('sparse_embedding').$type<Record<string, number>>(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
