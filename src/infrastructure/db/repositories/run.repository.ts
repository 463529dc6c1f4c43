import { hostname } from 'node:os';
import { and, count, desc, eq, gte, inArray, isNotNull, lt, or, isNull, sql } from 'drizzle-orm';
import type { RunItemError, RunStatus } from '../../../domain/runs.js';
import {
  RUN_ERRORS_KEPT,
  type RunFilter,
  type RunFinish,
  type RunRecord,
  type RunRepository,
} from '../../../application/runs/runs.ports.js';
import type { RunEndSignals } from '../../../application/pipeline/pipeline.ports.js';
import type { Database, Db } from '../client.js';
import { scrubSecrets } from '../../logging/scrub.js';
import { storableText } from '../safe-text.js';
import { articles, runErrors, scraperRuns, sources } from '../schema/index.js';

const ACTIVE: RunStatus[] = ['queued', 'running'];
/** NOTIFY channel of finished runs (every kind), the run's id as payload */
export const RUN_FINISHED_CHANNEL = 'run_finished';

/** Word of finished runs, from every process on the database (DrizzleRunRepository.finish sends it). */
export const runEndSignals = (database: Pick<Database, 'listen'>): RunEndSignals => ({
  listen: (heard) => database.listen(RUN_FINISHED_CHANNEL, heard),
});
/** how often a process says its runs are alive */
export const HEARTBEAT_MS = 30_000;
const MESSAGE_MAX = 1000;
/** first key of the two-key advisory locks that serialize run starts (one lock per kind) */
const RUN_LOCK_SPACE = 7_314_501;

const runOf = (r: typeof scraperRuns.$inferSelect): RunRecord => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  trigger: r.trigger,
  correlationId: r.correlationId,
  counts: r.counts,
  summary: r.summary,
  progress: { done: r.progressDone, total: r.progressTotal },
  errorCount: r.errorCount,
  error: r.error,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
});

/**
 * Run records of every kind. The runs this instance created and has not finished get a heartbeat
 * every HEARTBEAT_MS, so that another process can tell a live run from one whose process died.
 */
export class DrizzleRunRepository implements RunRepository {
  private readonly owner = `${hostname()}:${process.pid}`;
  private readonly mine = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  /**
   * `secrets`: values that must never be shown (the logger's list). A run's error is read by the
   * admin pages, so it is redacted like a log line: a driver error's bind parameters, credentials
   * in URLs and headers and these values are replaced before it is stored.
   */
  constructor(
    protected readonly db: Db,
    private readonly secrets: readonly string[] = [],
  ) {}

  private clean(text: string): string {
    return storableText(scrubSecrets(text, this.secrets), MESSAGE_MAX);
  }

  async create(input: {
    trigger: string;
    correlationId: string;
    kind?: RunRecord['kind'];
    status?: 'queued' | 'running';
  }): Promise<RunRecord> {
    const [r] = await this.db
      .insert(scraperRuns)
      .values({ ...input, owner: this.owner, heartbeatAt: new Date() })
      .returning();
    this.track(r!.id);
    return runOf(r!);
  }

  /**
   * Creates the run unless one of the same kind is under way (queued or running, with a heartbeat
   * newer than `staleBefore`): then null. The check and the insert run in one transaction under a
   * transaction-scoped advisory lock per kind, so two starts at the same moment, in this process or
   * another, cannot both pass the check.
   */
  async createExclusive(
    input: { trigger: string; correlationId: string; kind: RunRecord['kind']; status?: 'queued' | 'running' },
    staleBefore: Date,
  ): Promise<RunRecord | null> {
    const r = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${RUN_LOCK_SPACE}, hashtext(${input.kind}))`);
      const [busy] = await tx
        .select({ id: scraperRuns.id })
        .from(scraperRuns)
        .where(
          and(
            eq(scraperRuns.kind, input.kind),
            inArray(scraperRuns.status, ACTIVE),
            gte(scraperRuns.heartbeatAt, staleBefore),
          ),
        )
        .limit(1);
      if (busy) return null;
      const [row] = await tx
        .insert(scraperRuns)
        .values({ ...input, owner: this.owner, heartbeatAt: new Date() })
        .returning();
      return row!;
    });
    if (!r) return null;
    this.track(r.id);
    return runOf(r);
  }

  async progress(id: string, p: { done: number; total: number }): Promise<void> {
    await this.db
      .update(scraperRuns)
      .set({
        progressDone: Math.max(0, Math.round(p.done)),
        progressTotal: Math.max(0, Math.round(p.total)),
        heartbeatAt: new Date(),
        status: sql`case when ${scraperRuns.status} = 'queued' then 'running' else ${scraperRuns.status} end`,
      })
      .where(eq(scraperRuns.id, id));
  }

  async addErrors(id: string, errors: RunItemError[]): Promise<void> {
    if (!errors.length) return;
    const [run] = await this.db
      .update(scraperRuns)
      .set({ errorCount: sql`${scraperRuns.errorCount} + ${errors.length}` })
      .where(eq(scraperRuns.id, id))
      .returning({ errorCount: scraperRuns.errorCount });
    if (!run) return;
    const stored = run.errorCount - errors.length;
    const room = Math.max(0, RUN_ERRORS_KEPT - stored);
    const kept = errors.slice(0, room);
    if (!kept.length) return;
    await this.db.insert(runErrors).values(
      kept.map((e) => ({
        runId: id,
        sourceId: e.sourceId ?? null,
        articleId: e.articleId ?? null,
        topicId: e.topicId ?? null,
        message: this.clean(e.message),
      })),
    );
  }

  async finish(id: string, result: RunFinish): Promise<void> {
    try {
      const [run] = await this.db
        .select({ kind: scraperRuns.kind, startedAt: scraperRuns.startedAt })
        .from(scraperRuns)
        .where(eq(scraperRuns.id, id));
      let status = result.status;
      if (run?.kind === 'scrape') {
        const errors = await this.scrapeErrors(id, run.startedAt);
        await this.addErrors(id, errors);
        if (status === 'completed' && errors.length) status = 'completed_with_errors';
      }
      // the end and the word of it commit together: a process waiting on another's run hears it
      // once the record says so (RUN_FINISHED_CHANNEL)
      const write = (error: string | null) =>
        this.db.transaction(async (tx) => {
          await tx
            .update(scraperRuns)
            .set({
              status,
              counts: result.counts,
              summary: result.summary ?? result.counts,
              error,
              finishedAt: new Date(),
              heartbeatAt: new Date(),
            })
            .where(eq(scraperRuns.id, id));
          await tx.execute(sql`select pg_notify(${RUN_FINISHED_CHANNEL}, ${id})`);
        });
      try {
        await write(result.error === null ? null : this.clean(result.error));
      } catch {
        // whatever the text held, the run must not stay `running`
        await write(`${status}; the error text could not be stored`);
      }
    } finally {
      // no more heartbeats for a run whose end this process tried to write: if every attempt fails
      // (RunsService retries), the sweep closes it as interrupted instead of it showing as running
      this.untrack(id);
    }
  }

  async get(id: string): Promise<RunRecord | null> {
    const [r] = await this.db.select().from(scraperRuns).where(eq(scraperRuns.id, id));
    return r ? runOf(r) : null;
  }

  async errors(id: string, limit: number): Promise<RunItemError[]> {
    const rows = await this.db
      .select({ e: runErrors, title: articles.title })
      .from(runErrors)
      .leftJoin(articles, eq(articles.id, runErrors.articleId))
      .where(eq(runErrors.runId, id))
      .orderBy(runErrors.createdAt, runErrors.id)
      .limit(limit);
    return rows.map(({ e: r, title }) => ({
      ...(r.sourceId ? { sourceId: r.sourceId } : {}),
      ...(r.articleId ? { articleId: r.articleId } : {}),
      ...(title ? { articleTitle: title } : {}),
      ...(r.topicId ? { topicId: r.topicId } : {}),
      message: r.message,
    }));
  }

  async list(f: RunFilter): Promise<{ items: RunRecord[]; total: number }> {
    const where = and(
      f.kind ? eq(scraperRuns.kind, f.kind) : undefined,
      f.status ? eq(scraperRuns.status, f.status) : undefined,
    );
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(scraperRuns)
        .where(where)
        .orderBy(desc(scraperRuns.startedAt), desc(scraperRuns.id))
        .limit(f.limit)
        .offset(f.offset),
      this.db.select({ n: count() }).from(scraperRuns).where(where),
    ]);
    return { items: rows.map(runOf), total: Number(total?.n ?? 0) };
  }

  async closeInterrupted(opts: { all: boolean; staleBefore: Date }): Promise<number> {
    // a run owned by a process of this host that no longer exists is closed at once (a restart
    // after kill -9); other hosts' runs only once their heartbeat is stale
    const open = await this.db
      .select({ owner: scraperRuns.owner })
      .from(scraperRuns)
      .where(inArray(scraperRuns.status, ACTIVE));
    const deadOwners = [...new Set(open.map((r) => r.owner).filter((o): o is string => !!o))].filter(
      (owner) => this.ownerIsDeadHere(owner),
    );
    const stale = or(
      isNull(scraperRuns.heartbeatAt),
      lt(scraperRuns.heartbeatAt, opts.staleBefore),
      ...(deadOwners.length ? [inArray(scraperRuns.owner, deadOwners)] : []),
    );
    const rows = await this.db
      .update(scraperRuns)
      .set({
        status: 'interrupted',
        finishedAt: new Date(),
        error: 'the process running it stopped before it ended',
      })
      .where(and(inArray(scraperRuns.status, ACTIVE), opts.all ? undefined : stale))
      .returning({ id: scraperRuns.id });
    return rows.length;
  }

  /** `host:pid` names a process of this host other than this one that is not running */
  private ownerIsDeadHere(owner: string): boolean {
    const at = owner.lastIndexOf(':');
    const pid = Number(owner.slice(at + 1));
    if (owner.slice(0, at) !== hostname() || !Number.isInteger(pid) || pid === process.pid) return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      // EPERM: it exists but is another user's
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  /** sources that failed since the run started, and the run's articles that failed */
  private async scrapeErrors(id: string, startedAt: Date): Promise<RunItemError[]> {
    const [failedSources, failedArticles] = await Promise.all([
      this.db
        .select({ id: sources.id, error: sources.lastError })
        .from(sources)
        .where(and(isNotNull(sources.lastError), gte(sources.lastFetchedAt, startedAt))),
      // a failed stage leaves its status (`analysis_failed`, `translation_failed`, ...) and the error
      this.db
        .select({
          id: articles.id,
          topicId: articles.topicId,
          status: articles.processingStatus,
          error: articles.processingError,
        })
        .from(articles)
        .where(and(eq(articles.runId, id), isNotNull(articles.processingError)))
        .limit(RUN_ERRORS_KEPT),
    ]);
    return [
      ...failedSources.map((s) => ({ sourceId: s.id, message: s.error ?? 'failed' })),
      ...failedArticles.map((a) => ({
        articleId: a.id,
        topicId: a.topicId,
        message: `${a.status.replaceAll('_', ' ')}: ${a.error ?? ''}`,
      })),
    ];
  }

  private track(id: string): void {
    this.mine.add(id);
    this.timer ??= setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  private untrack(id: string): void {
    this.mine.delete(id);
    if (!this.mine.size && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async beat(): Promise<void> {
    if (!this.mine.size) return;
    await this.db
      .update(scraperRuns)
      .set({ heartbeatAt: new Date() })
      .where(inArray(scraperRuns.id, [...this.mine]))
      .catch(() => undefined);
  }
}
