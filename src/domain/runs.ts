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

export const RUN_TRIGGERS = ['cron', 'admin', 'cli'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** One item that failed in a run: which source, article or topic, and why. */
export interface RunItemError {
  sourceId?: string;
  articleId?: string;
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
