import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common.js';
import { users } from './users.js';

export interface StoredAskCitation {
  n: number;
  article_id: string;
  title: string;
  url: string;
  quote: string;
}

/**
 * A user's own questions and answers (POST /ask): readable and clearable by that user only, gone
 * with the account, and bounded per user (the oldest go past the limit). Nothing else of a
 * question is kept.
 */
export const askHistory = pgTable(
  'ask_history',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    language: text('language').notNull(),
    answer: text('answer').notNull(),
    abstained: boolean('abstained').notNull(),
    method: text('method').notNull(),
    citations: jsonb('citations').$type<StoredAskCitation[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  // the user's page, newest first; the prune reads the same range
  (t) => [index('ask_history_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc())],
);
