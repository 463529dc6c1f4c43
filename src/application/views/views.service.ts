import { isUuid } from '../../domain/text.js';
import type { KeyValueCache, Logger } from '../shared/ports.js';
import type { ViewCountStore, ViewIncrement } from './views.ports.js';

/** The cache keys of view counting (docs/decisions/0033-view-counting.md): a counter per article, a 24 h mark per reader. */
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
/** views remembered in process while the cache is down (dedup entries; counts are per article) */
const LOCAL_SEEN_MAX = 200_000;
const CACHE_RETRY_MS = 5000;
/** articles remembered for the quick flush; beyond this the periodic flush takes them */
const RECENT_MAX = 50_000;

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
  /** counts a failed write could not give back to the cache; the next flush adds them */
  private readonly localCounts = new Map<string, number>();
  /**
   * Views counted in process while the cache was unreachable, by dedup key. The next flush hands
   * each key to the cache with SET NX: when the cache already has it (a command that timed out
   * here but reached Redis, or another replica), Redis counted that view and it is not added twice.
   */
  private readonly localSeen = new Map<string, { until: number; articleId: string; unflushed: boolean }>();
  private cacheDown = false;
  /** articles counted since the last quick flush (noteRecent) */
  private readonly recent = new Set<string>();
  private recentTimer: ReturnType<typeof setTimeout> | null = null;
  /** while the cache is down, views skip it until this time (ms) instead of waiting on each call */
  private retryCacheAt = 0;

  constructor(
    private readonly cache: KeyValueCache,
    private readonly store: ViewCountStore,
    private readonly logger: Logger,
    private readonly options: { recentFlushDelayMs?: number } = {},
  ) {}

  /** true when the view was counted (unknown article and repeated views are not) */
  recordView(articleId: string, ip: string): Promise<boolean> {
    // an article seen before goes straight to the count: no database and no extra promise turn
    if (this.knownIds.has(articleId)) return this.count(articleId, ip);
    return this.articleExists(articleId).then((known) => known && this.count(articleId, ip));
  }

  private async count(articleId: string, ip: string): Promise<boolean> {
    const key = viewedKey(ip, articleId);
    if (this.cacheDown && Date.now() < this.retryCacheAt) return this.countLocally(key, articleId);
    try {
      const counted = await this.cache.incrOnce(key, VIEW_DEDUP_SECONDS, viewCounterKey(articleId));
      if (counted) this.noteRecent(articleId);
      if (this.cacheDown) {
        this.cacheDown = false;
        this.logger.info({ event: 'views.cache_recovered' }, 'the cache answers again');
        // an api process without the flush worker hands its in-process views to the cache
        void this.handToCache().catch(() => undefined);
      }
      return counted;
    } catch (err) {
      // the cache is unreachable: count in process, the next flush writes it (nothing is lost)
      this.retryCacheAt = Date.now() + CACHE_RETRY_MS;
      if (!this.cacheDown) {
        this.cacheDown = true;
        this.logger.warn(
          { event: 'views.cache_unavailable', err },
          'counting views in process until the cache answers',
        );
      }
      return this.countLocally(key, articleId);
    }
  }

  private countLocally(key: string, articleId: string): boolean {
    const now = Date.now();
    const seen = this.localSeen.get(key);
    if (seen && seen.until > now) return false;
    if (this.localSeen.size >= LOCAL_SEEN_MAX)
      for (const [k, e] of this.localSeen) if (e.until <= now && !e.unflushed) this.localSeen.delete(k);
    this.localSeen.set(key, { until: now + VIEW_DEDUP_SECONDS * 1000, articleId, unflushed: true });
    return true;
  }

  /**
   * An article just viewed: its counter is moved into the stored count `recentFlushDelayMs` later
   * (VIEW_COUNT_RECENT_FLUSH_SECONDS), so that sorting by views (which reads the stored count) agrees with the
   * count the list and the reader view show within seconds. Only the counters of the articles this
   * process counted are taken (GETDEL, like the full flush): no scan of the cache, and a counter is
   * added once whichever flush takes it. The periodic flush still takes everything else (another
   * process's counters, a process that stopped before its next quick flush).
   */
  private noteRecent(articleId: string): void {
    const delay = this.options.recentFlushDelayMs ?? 0;
    if (delay <= 0) return;
    if (this.recent.size < RECENT_MAX) this.recent.add(articleId);
    this.recentTimer ??= setTimeout(() => {
      this.recentTimer = null;
      void this.flushRecent().catch((err: unknown) =>
        this.logger.warn({ event: 'views.flush.recent_failed', err }, 'recent views stay for the next flush'),
      );
    }, delay);
    this.recentTimer.unref?.();
  }

  /** moves the counters of the articles viewed since the last call into the stored count now */
  flushRecent(): Promise<FlushResult> {
    const run = this.tail.then(async () => {
      const ids = [...this.recent];
      this.recent.clear();
      const total: FlushResult = { articles: 0, views: 0 };
      for (let i = 0; i < ids.length; i += WRITE_BATCH) {
        const chunk = ids.slice(i, i + WRITE_BATCH);
        const values = await this.cache.take(chunk.map(viewCounterKey));
        const batch = chunk
          .map((articleId, n) => ({ articleId, views: Number(values[n]) }))
          .filter((b) => Number.isInteger(b.views) && b.views > 0);
        if (!batch.length) continue;
        const applied = await this.write(batch);
        total.articles += applied.articles;
        total.views += applied.views;
      }
      return total;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Views counted in process become cache counters again; SET NX on their keys keeps them single. */
  private async handToCache(): Promise<void> {
    const now = Date.now();
    for (const [key, e] of [...this.localSeen]) {
      if (!e.unflushed) continue;
      const ttl = Math.ceil((e.until - now) / 1000);
      if (ttl > 0) await this.cache.incrOnce(key, ttl, viewCounterKey(e.articleId));
      e.unflushed = false;
      this.localSeen.delete(key);
    }
  }

  /**
   * The in-process counts, taken: views counted while the cache was down (each checked against the
   * cache when it answers again) and counts a failed write left here. A failed write puts them back.
   */
  private async takeLocal(): Promise<ViewIncrement[]> {
    const counts = new Map(this.localCounts);
    this.localCounts.clear();
    const now = Date.now();
    let reachable = true;
    for (const [key, e] of [...this.localSeen]) {
      if (e.unflushed) {
        let fresh = true;
        const ttl = Math.ceil((e.until - now) / 1000);
        if (reachable && ttl > 0)
          fresh = await this.cache.setIfAbsent(key, '1', ttl).catch(() => ((reachable = false), true));
        e.unflushed = false;
        if (fresh) counts.set(e.articleId, (counts.get(e.articleId) ?? 0) + 1);
      }
      // once the cache holds the key, it does the dedup again
      if (reachable || e.until <= now) this.localSeen.delete(key);
    }
    return [...counts].map(([articleId, views]) => ({ articleId, views }));
  }

  /**
   * Views of one article counted but not yet flushed into the stored count: the cache counter plus
   * what this process holds (the reader view shows them at once). 0 when the cache does not answer.
   */
  async pending(articleId: string): Promise<number> {
    let n = this.localCounts.get(articleId) ?? 0;
    for (const e of this.localSeen.values()) if (e.unflushed && e.articleId === articleId) n++;
    if (this.cacheDown && Date.now() < this.retryCacheAt) return n;
    const counted = Number(await this.cache.get(viewCounterKey(articleId)).catch(() => null));
    return n + (Number.isInteger(counted) && counted > 0 ? counted : 0);
  }

  /** pending() for a page of articles: the cache counters read at once, only those above 0 */
  async pendingMany(articleIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const id of articleIds) {
      let n = this.localCounts.get(id) ?? 0;
      if (this.localSeen.size)
        for (const e of this.localSeen.values()) if (e.unflushed && e.articleId === id) n++;
      if (n) out.set(id, n);
    }
    if (!articleIds.length || (this.cacheDown && Date.now() < this.retryCacheAt)) return out;
    const counted = await Promise.all(
      articleIds.map((id) => this.cache.get(viewCounterKey(id)).catch(() => null)),
    );
    counted.forEach((v, i) => {
      const n = Number(v);
      if (v && Number.isInteger(n) && n > 0) out.set(articleIds[i]!, (out.get(articleIds[i]!) ?? 0) + n);
    });
    return out;
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
    const local = await this.takeLocal();
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
    if (local.length) launch(local);
    try {
      await this.takeCounters(
        launch,
        writes,
        () => failure !== null,
        (batch) => (pending = batch),
        () => pending,
      );
    } catch (err) {
      // the cache failed while counters were being taken: what was taken is written below
      failure ??= { err };
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

  private async takeCounters(
    launch: (batch: ViewIncrement[]) => void,
    writes: Set<Promise<void>>,
    failed: () => boolean,
    setPending: (batch: ViewIncrement[]) => void,
    getPending: () => ViewIncrement[],
  ): Promise<void> {
    for await (const keys of this.cache.scan(COUNTER_PREFIX, SCAN_BATCH)) {
      const pending = getPending();
      const values = await this.cache.take(keys);
      for (const [n, key] of keys.entries()) {
        const value = values[n];
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
        setPending([]);
        while (writes.size >= WRITES_IN_FLIGHT) await Promise.race(writes);
      }
      if (failed()) break;
    }
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
    // what the cache could not take back stays in process for the next flush: nothing is lost
    const kept = batch.filter((_, n) => results[n]!.status === 'rejected');
    for (const i of kept)
      this.localCounts.set(i.articleId, (this.localCounts.get(i.articleId) ?? 0) + i.views);
    this.logger.error(
      {
        event: 'views.flush.failed',
        restored: batch.length - kept.length,
        kept_in_process: kept.reduce((s, i) => s + i.views, 0),
      },
      'view flush write failed; counts put back for the next flush',
    );
  }
}
