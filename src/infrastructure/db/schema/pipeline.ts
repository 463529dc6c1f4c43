import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common.js';

export const scraperRuns = pgTable('scraper_runs', {
  id: id(),
  status: text('status', { enum: ['running', 'completed', 'failed'] })
    .notNull()
    .default('running'),
  trigger: text('trigger').notNull().default('manual'),
  correlationId: text('correlation_id').notNull(),
  counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
  error: text('error'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/**
 * Items skipped as duplicates, with the reason (url, doi, arxiv_id, title), and items the store
 * refused (reason `refused`, the database's message in `detail`).
 */
export const scraperSkips = pgTable(
  'scraper_skips',
  {
    id: id(),
    runId: uuid('run_id')
      .notNull()
      .references(() => scraperRuns.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    reason: text('reason').notNull(),
    duplicateOf: text('duplicate_of'),
    detail: text('detail'),
    createdAt: createdAt(),
  },
  (t) => [index('scraper_skips_run_idx').on(t.runId)],
);
