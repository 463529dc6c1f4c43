import type { RunItemError, RunKind, RunStatus } from '../../domain/runs.js';

export interface RunRecord {
  id: string;
  kind: RunKind;
  status: RunStatus;
  trigger: string;
  correlationId: string;
  /** a scrape's counters (kept for GET /admin/scraper/runs/{id}) */
  counts: Record<string, number>;
  summary: Record<string, string | number | null>;
  progress: { done: number; total: number };
  errorCount: number;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export interface RunFilter {
  kind?: RunKind;
  status?: RunStatus;
  limit: number;
  offset: number;
}

export interface RunFinish {
  status: RunStatus;
  counts: Record<string, number>;
  error: string | null;
  /** defaults to the counts */
  summary?: Record<string, string | number | null>;
}

/** Where runs of every kind are recorded; one row per run, its item errors beside it. */
export interface RunRepository {
  create(input: {
    trigger: string;
    correlationId: string;
    kind?: RunKind;
    status?: 'queued' | 'running';
  }): Promise<RunRecord>;
  /**
   * Creates the run unless a run of the same kind is queued or running with a heartbeat newer than
   * `staleBefore` (here or in another process): then null. Race-free: check and insert are one step.
   */
  createExclusive(
    input: { trigger: string; correlationId: string; kind: RunKind; status?: 'queued' | 'running' },
    staleBefore: Date,
  ): Promise<RunRecord | null>;
  /** progress and a heartbeat; a run that was queued is running from now on */
  progress(id: string, progress: { done: number; total: number }): Promise<void>;
  /** stores the errors (at most RUN_ERRORS_KEPT per run) and counts all of them */
  addErrors(id: string, errors: RunItemError[]): Promise<void>;
  /**
   * Ends the run. A scrape's failed sources (fetched since it started) and failed articles are
   * recorded as its errors here, and `completed` becomes `completed_with_errors` when there are any.
   */
  finish(id: string, result: RunFinish): Promise<void>;
  get(id: string): Promise<RunRecord | null>;
  errors(id: string, limit: number): Promise<RunItemError[]>;
  list(filter: RunFilter): Promise<{ items: RunRecord[]; total: number }>;
  /**
   * Closes as `interrupted` the runs left queued or running by a process that is gone: every one
   * when this process holds the database alone (PGlite), else those whose heartbeat is older than
   * `staleBefore`. Answers how many it closed.
   */
  closeInterrupted(opts: { all: boolean; staleBefore: Date }): Promise<number>;
}

/** stored item errors per run; the count goes on */
export const RUN_ERRORS_KEPT = 500;
