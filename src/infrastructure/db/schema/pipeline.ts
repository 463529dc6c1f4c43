import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id } from './common.js';

/**
 * Runs of every kind (scrape, metrics, reports): the table of the first scraper runs, kept under its
 * name so that existing runs and their skips stay (docs/decisions/0051-runs-as-records.md).
 */
export const scraperRuns = pgTable(
  'scraper_runs',
  {
    id: id(),
    kind: text('kind', { enum: ['scrape', 'metrics', 'reports'] })
      .notNull()
      .default('scrape'),
    status: text('status', {
      enum: ['queued', 'running', 'completed', 'completed_with_errors', 'failed', 'interrupted'],
    })
      .notNull()
      .default('running'),
    trigger: text('trigger').notNull().default('admin'),
    correlationId: text('correlation_id').notNull(),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    /** plain fields of what the run did (counts for a scrape, the refresh or report summary) */
    summary: jsonb('summary').$type<Record<string, string | number | null>>().notNull().default({}),
    progressDone: integer('progress_done').notNull().default(0),
    progressTotal: integer('progress_total').notNull().default(0),
    /**
     * A scrape's articles not yet in a final status (plus one while its stages run): set by the
     * statements that store and finish them; the write that takes it to 0 ends the run, and -1 (or
     * less) marks a run whose end is taken (RunStore.claimEnd).
     */
    articlesPending: integer('articles_pending').notNull().default(0),
    /** how many item errors the run met (at most RUN_ERRORS_KEPT of them are stored) */
    errorCount: integer('error_count').notNull().default(0),
    error: text('error'),
    /** the process running it (host:pid) and when it last said it is alive */
    owner: text('owner'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('scraper_runs_started_idx').on(t.startedAt, t.id),
    index('scraper_runs_status_idx').on(t.status),
  ],
);

/** Items a run could not do: which source, article or topic, and why. */
export const runErrors = pgTable(
  'run_errors',
  {
    id: id(),
    runId: uuid('run_id')
      .notNull()
      .references(() => scraperRuns.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id'),
    articleId: uuid('article_id'),
    topicId: uuid('topic_id'),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('run_errors_run_idx').on(t.runId, t.createdAt)],
);

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

/**
 * What the language model cost, summed per UTC day, purpose (analysis, translation, report...),
 * provider and run (the nil UUID for calls outside a run), written once a second by the usage
 * recorder (application/shared/llm-usage.ts). Kept when runs are pruned: it is the cost history.
 */
export const llmUsage = pgTable(
  'llm_usage',
  {
    day: date('day', { mode: 'string' }).notNull(),
    purpose: text('purpose').notNull(),
    provider: text('provider').notNull(),
    runId: uuid('run_id').notNull(),
    calls: integer('calls').notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.purpose, t.provider, t.runId] }),
    index('llm_usage_run_idx').on(t.runId),
  ],
);
