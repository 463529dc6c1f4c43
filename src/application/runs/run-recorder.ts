import type { RunItemError } from '../../domain/runs.js';
import type { Logger } from '../shared/ports.js';
import type { RunRepository } from './runs.ports.js';

/** at most one progress write per this many ms; the last one is always written */
const WRITE_EVERY_MS = 500;

/**
 * Records one run's progress and item errors while it works, without a database write per item:
 * writes are coalesced to one every WRITE_EVERY_MS; `flush` writes what is left (before finish).
 */
export class RunRecorder {
  private progress: { done: number; total: number } | null = null;
  private errors: RunItemError[] = [];
  private errorCount = 0;
  private writing: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly runId: string,
    private readonly runs: Pick<RunRepository, 'progress' | 'addErrors'>,
    private readonly logger: Logger,
  ) {}

  /** how many item errors were reported */
  get errorTotal(): number {
    return this.errorCount;
  }

  setProgress(done: number, total: number): void {
    this.progress = { done, total };
    this.schedule();
  }

  error(e: RunItemError): void {
    this.errorCount++;
    this.errors.push(e);
    this.schedule();
  }

  /** writes what is pending now; resolves when every write so far is done */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.write();
    await this.writing;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.write();
    }, WRITE_EVERY_MS);
  }

  private write(): void {
    const progress = this.progress;
    const errors = this.errors;
    this.progress = null;
    this.errors = [];
    if (!progress && !errors.length) return;
    this.writing = this.writing.then(async () => {
      try {
        if (errors.length) await this.runs.addErrors(this.runId, errors);
        if (progress) await this.runs.progress(this.runId, progress);
      } catch (err) {
        // progress is informative: a failed write never fails the run
        this.logger.warn({ event: 'run.progress_write_failed', run_id: this.runId, err });
      }
    });
  }
}
