import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sources } from './catalog.js';
import { id } from './common.js';
import { scraperRuns } from './pipeline.js';

/**
 * One row per read of a source by the scraper (issue 18): when, how long, the HTTP status, the
 * items seen, new and duplicate, and why it failed. The newest SOURCE_FETCHES_KEPT per source are
 * kept; older ones are deleted when a new one is written.
 */
export const sourceFetches = pgTable(
  'source_fetches',
  {
    id: id(),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').references(() => scraperRuns.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    httpStatus: integer('http_status'),
    itemsSeen: integer('items_seen').notNull().default(0),
    itemsNew: integer('items_new'),
    itemsDuplicate: integer('items_duplicate'),
    errorCode: text('error_code'),
    error: text('error'),
  },
  (t) => [
    index('source_fetches_source_idx').on(t.sourceId, t.startedAt),
    index('source_fetches_run_idx').on(t.runId),
  ],
);
