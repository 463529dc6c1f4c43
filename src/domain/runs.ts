/** Runs of the background jobs (scrape, metric refresh, weekly reports) share one model. */
export const RUN_KINDS = ['scrape', 'metrics', 'reports'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export const RUN_STATUSES = [
  'queued',
  'running',
  'completed',
  'completed_with_errors',
  'failed',
  'interrupted',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** a run in one of these states is still under way (or was, when its process died) */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ['queued', 'running'];

/** `source_added`: the first read of a source, started (or queued) when an admin added it */
export const RUN_TRIGGERS = ['cron', 'admin', 'cli', 'source_added'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** One item that failed in a run: which source, article or topic, and why. */
export interface RunItemError {
  sourceId?: string;
  articleId?: string;
  /** the article's title when it is read back (so a failure is named, not only linked) */
  articleTitle?: string;
  topicId?: string;
  message: string;
}

/** Triggers written before the runs model ('api', 'manual') read as admin. */
export function normalizeTrigger(trigger: string): RunTrigger {
  return (RUN_TRIGGERS as readonly string[]).includes(trigger) ? (trigger as RunTrigger) : 'admin';
}

/** The final status of a run that ended without throwing. */
export const endStatus = (errorCount: number): RunStatus =>
  errorCount > 0 ? 'completed_with_errors' : 'completed';

/** a run's heartbeat older than this is from a process that is gone (several heartbeats missed) */
export const RUN_STALE_AFTER_MS = 5 * 60_000;
/** The pipeline's stages as a run's `<stage>_failed` counts and the Service tab name them. */
export const PIPELINE_STAGES = [
  'sources',
  'fetch',
  'processing',
  'analysis',
  'tag_normalization',
  'translation',
] as const;
export type PipelineStage = (typeof PIPELINE_STAGES)[number];

/**
 * Every field a run's summary may hold, for every kind (besides `from_<citation source>`, the
 * metric refresh's values per source). The Jobs page names each one in every language: a test
 * fails when one has no label (test/web/locale-completeness.test.ts).
 */
export const RUN_FIELDS = [
  // scrape
  'sources',
  'sources_not_modified',
  'sources_failed',
  'discovered',
  'fetched',
  'fetch_failed',
  'fetch_refused',
  'invalid',
  'enriched',
  'duplicates',
  'duplicates_url',
  'duplicates_doi',
  'duplicates_arxiv_id',
  'duplicates_title',
  'refused',
  'topic_links',
  'published',
  'processed',
  'analyzed',
  'tagged',
  'translated',
  'completed',
  'processing_failed',
  'analysis_failed',
  'tag_normalization_failed',
  'translation_failed',
  // metric refresh
  'articles',
  'updated',
  'unchanged',
  // weekly reports
  'week_start',
  'topics',
  'created',
  'existing',
  'skipped',
  // several kinds
  'failed',
] as const;
export type RunField = (typeof RUN_FIELDS)[number];
