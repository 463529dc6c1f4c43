import { isUuid } from '../../domain/text.js';
import type { KeyValueCache, Logger } from '../shared/ports.js';
import type { ViewCountStore, ViewIncrement } from './views.ports.js';

/** Exact cache keys of the spec. */
export const viewCounterKey = (articleId: string) => `view:${articleId}`;
export const viewedKey = (ip: string, articleId: string) => `viewed:${ip}:${articleId}`;
const COUNTER_PREFIX = 'view:';
export const VIEW_DEDUP_SECONDS = 24 * 60 * 60;

export interface FlushResult {
  articles: number;
  views: number;
}

/** Large enough that 100k counters are ~10 statements, small enough to keep one statement quick. */
const WRITE_BATCH = 10_000;
const SCAN_BATCH = 1000;
/** two statements at a time keep both cores of a small database server busy */
const WRITES_IN_FLIGHT = 2;
const KNOWN_IDS_MAX = 50_000;

/**
 * View counting: POST /articles/{id}/view counts one view per IP and article per 24 h in the cache;
 * flush() moves the counters into articles.view_count. A counter is taken with GETDEL, so views
 * arriving during a flush start a fresh counter for the next one; a failed write puts the taken
 * amounts back with INCRBY. Flushes of one process run one after the other.
 */
export class ViewsService {
  private tail: Promise<unknown> = Promise.resolve();
  /** ids known to exist: the hot path of a view skips the database for them */
  private readonly knownIds = new Set<string>();

  constructor(
    private readonly cache: KeyValueCache,
    private readonly store: ViewCountStore,
    private readonly logger: Logger,
  ) {}

  /** true when the view was counted (unknown article and repeated views are not) */
  async recordView(articleId: string, ip: string): Promise<boolean> {
    if (!(await this.articleExists(articleId))) return false;
    return this.cache.incrOnce(viewedKey(ip, articleId), VIEW_DEDUP_SECONDS, viewCounterKey(articleId));
  }

  flush(): Promise<FlushResult> {
    const run = this.tail.then(() => this.flushOnce());
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async articleExists(id: string): Promise<boolean> {
    if (this.knownIds.has(id)) return true;
    if (!(await this.store.exists(id))) return false;
    if (this.knownIds.size >= KNOWN_IDS_MAX) this.knownIds.clear();
    this.knownIds.add(id);
    return true;
  }

  /**
   * Taking counters (cache) and adding them (database) overlap: up to WRITES_IN_FLIGHT batches are
   * written while the next counters are taken. Batches of one flush name distinct articles, so
   * concurrent writes never contend for a row. On the first failed write nothing more is taken;
   * what was taken and not written is put back, and the flush fails.
   */
  private async flushOnce(): Promise<FlushResult> {
    const started = Date.now();
    const total: FlushResult = { articles: 0, views: 0 };
    const writes = new Set<Promise<void>>();
    let failure: { err: unknown } | null = null;
    let pending: ViewIncrement[] = [];
    const launch = (batch: ViewIncrement[]) => {
      const p: Promise<void> = this.write(batch)
        .then(
          (applied) => {
            total.articles += applied.articles;
            total.views += applied.views;
          },
          (err: unknown) => {
            failure ??= { err };
          },
        )
        .finally(() => writes.delete(p));
      writes.add(p);
    };
    for await (const keys of this.cache.scan(COUNTER_PREFIX, SCAN_BATCH)) {
      const taken = await Promise.all(keys.map(async (key) => ({ key, value: await this.cache.take(key) })));
      for (const { key, value } of taken) {
        const articleId = key.slice(COUNTER_PREFIX.length);
        const views = Number(value);
        if (!value || !Number.isInteger(views) || views <= 0) continue;
        if (!isUuid(articleId)) {
          this.logger.warn({ event: 'views.flush.bad_key', key }, 'dropped a counter that names no article');
          continue;
        }
        pending.push({ articleId, views });
      }
      if (pending.length >= WRITE_BATCH) {
        launch(pending);
        pending = [];
        while (writes.size >= WRITES_IN_FLIGHT) await Promise.race(writes);
      }
      if (failure) break;
    }
    if (pending.length) {
      if (failure) await this.putBack(pending);
      else launch(pending);
    }
    await Promise.all(writes);
    if (failure) throw (failure as { err: unknown }).err;
    this.logger.info(
      { event: 'views.flush.completed', ...total, duration_ms: Date.now() - started },
      'view counts flushed',
    );
    return total;
  }

  private async write(batch: ViewIncrement[]): Promise<FlushResult> {
    try {
      return await this.store.addViews(batch);
    } catch (err) {
      await this.putBack(batch);
      throw err;
    }
  }

  private async putBack(batch: ViewIncrement[]): Promise<void> {
    const results = await Promise.allSettled(
      batch.map((i) => this.cache.incrBy(viewCounterKey(i.articleId), i.views)),
    );
    const lost = batch.filter((_, n) => results[n]!.status === 'rejected');
    this.logger.error(
      {
        event: 'views.flush.failed',
        restored: batch.length - lost.length,
        lost_views: lost.reduce((s, i) => s + i.views, 0),
      },
      'view flush write failed; counts put back for the next flush',
    );
  }
}
