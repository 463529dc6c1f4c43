import { resolveIdentifiers, type ArticleIdentifiers } from '../../domain/metrics.js';
import { conflict } from '../../domain/errors.js';
import type { Clock, JobLock, Logger } from '../shared/ports.js';
import type {
  CitationSource,
  MetricRefreshStore,
  MetricValueWrite,
  RefreshCandidate,
} from './metrics.ports.js';

export interface RefreshSummary {
  /** articles that had at least one missing or stale value */
  articles: number;
  /** values that changed: differ from the stored one (a first value counts, a first "none" does not) */
  updated: number;
  /** values written equal to the stored one (refreshed_at moves on) */
  unchanged: number;
  /** values left alone because every source that could answer failed; retried next run */
  failed: number;
  /** where the written values came from; `none` = every source answered without a value */
  by_source: Record<string, number>;
}

export interface RefreshProgress {
  done: number;
  total: number;
}

/** An article whose value could not be refreshed: no source that could answer did. */
export interface RefreshFailure {
  articleId: string;
  metricKey: string;
  /** each source that failed and why, e.g. `semantic_scholar: HTTP 503` */
  message: string;
}
export type RefreshFailureFn = (f: RefreshFailure) => void;

export const METRIC_REFRESH_JOB = 'metric-refresh';
/** the lookup on arrival: a tick every minute looks up what was stored since the last one */
export const CITATION_ARRIVALS_JOB = 'citation-arrivals';
export const CITATION_ARRIVALS_CRON = '* * * * *';
/** articles looked up per tick at most: a burst (a new arXiv feed) is worked off over a few ticks */
const ARRIVALS_PER_TICK = 200;
/**
 * Once caught up, the next tick starts this far back: an article committed late by a slow
 * transaction is still met, and one whose sources failed is tried again for a couple of ticks
 * before it is left to the daily refresh.
 */
const ARRIVAL_OVERLAP_MS = 2 * 60_000;
const NIL_ID = '00000000-0000-0000-0000-000000000000';
const DAY_MS = 24 * 60 * 60 * 1000;
/** articles refreshed at once: sources are rate limited, a small overlap keeps the limiter busy */
const CONCURRENCY = 4;
/** articles read from the database at a time: one Semantic Scholar batch request */
const PAGE_SIZE = 500;
/** from this many due articles on, a source with a batch endpoint is asked for the page at once */
const BATCH_FROM = 5;

/** answers of batch requests for one page: provider → article id → value; `failed`: the batch failed */
type PageAnswers = Map<string, Map<string, number | null> | 'failed'>;

/**
 * Daily metric refresh (docs/decisions/0061-metric-catalog-and-refresh.md): every enabled metric with a missing or stale
 * value is looked up in its extraction sources in priority order; the first non-null wins.
 * Idempotent: a second run within a day finds nothing to do.
 */
export class MetricRefreshService {
  private readonly sources: Map<string, CitationSource>;

  constructor(
    private readonly store: MetricRefreshStore,
    sources: CitationSource[],
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly lock: JobLock,
  ) {
    this.sources = new Map(sources.map((s) => [s.provider, s]));
  }

  /** The admin endpoint and the CLI: the same lock as the cron tick, so two never overlap. */
  async runNow(
    onProgress?: (p: RefreshProgress) => void,
    onFailure?: RefreshFailureFn,
  ): Promise<RefreshSummary> {
    const r = await this.lock.runExclusive(`cron:${METRIC_REFRESH_JOB}`, () =>
      this.run(onProgress, onFailure),
    );
    if (!r.ran) throw conflict('the metric refresh is already running', 'job_running');
    return r.value;
  }

  async run(
    onProgress: (p: RefreshProgress) => void = () => undefined,
    onFailure: RefreshFailureFn = () => undefined,
  ): Promise<RefreshSummary> {
    const started = Date.now();
    const summary: RefreshSummary = { articles: 0, updated: 0, unchanged: 0, failed: 0, by_source: {} };
    const definitions = await this.store.enabledDefinitions();
    if (!definitions.length) return summary;
    const providersOf = new Map(definitions.map((d) => [d.metricKey, d.providers]));
    const keys = definitions.map((d) => d.metricKey);
    const staleBefore = new Date(this.clock.now().getTime() - DAY_MS);
    const total = await this.store.countCandidates(keys, staleBefore);
    this.logger.info({ event: 'metrics.refresh_started', articles: total });
    onProgress({ done: 0, total });

    let done = 0;
    // pages in id order: an article whose lookup failed stays stale but is not met again this run
    for (let after: string | null = null; ;) {
      const candidates = await this.store.candidates(keys, staleBefore, { after, limit: PAGE_SIZE });
      if (!candidates.length) break;
      after = candidates[candidates.length - 1]!.id;
      summary.articles += candidates.length;
      await this.refreshPage(candidates, providersOf, summary, onFailure, () =>
        // articles that became stale during the run can push done past the first count
        onProgress({ done: ++done, total: Math.max(total, done) }),
      );
    }
    this.logger.info({
      event: 'metrics.refresh_finished',
      ...summary,
      duration_ms: Date.now() - started,
    });
    return summary;
  }

  /**
   * Citations on arrival (a cron tick every minute): the articles stored since the last tick that
   * carry a DOI or arXiv id and were never looked up, through the same sources, priorities and
   * rate limits as the daily refresh. Not a recorded run (it would list one a minute): a log line
   * when it looked something up. Failures stay for the next ticks within the overlap, then for the
   * daily refresh.
   */
  async lookUpArrivals(): Promise<RefreshSummary> {
    const summary: RefreshSummary = { articles: 0, updated: 0, unchanged: 0, failed: 0, by_source: {} };
    const definitions = await this.store.enabledDefinitions();
    if (!definitions.length) return summary;
    const now = this.clock.now();
    const horizon = new Date(now.getTime() - DAY_MS);
    const stored = await this.store.arrivalCursor();
    const after = stored && stored.at > horizon ? stored : { at: horizon, id: NIL_ID };
    const page = await this.store.arrivals(
      definitions.map((d) => d.metricKey),
      after,
      horizon,
      ARRIVALS_PER_TICK,
    );
    const failures: RefreshFailure[] = [];
    if (page.length) {
      summary.articles = page.length;
      await this.refreshPage(
        page,
        new Map(definitions.map((d) => [d.metricKey, d.providers])),
        summary,
        (f) => failures.push(f),
        () => undefined,
      );
    }
    const last = page[page.length - 1];
    // a full page: go on right after it; caught up: start a little back next time
    await this.store.setArrivalCursor(
      last && page.length === ARRIVALS_PER_TICK
        ? { at: last.scrapedAt, id: last.id }
        : { at: new Date(now.getTime() - ARRIVAL_OVERLAP_MS), id: NIL_ID },
    );
    if (page.length)
      this.logger.info({
        event: 'metrics.arrivals_looked_up',
        ...summary,
        failed_articles: failures.slice(0, 10).map((f) => ({ article_id: f.articleId, reason: f.message })),
      });
    return summary;
  }

  /** The articles of one page, CONCURRENCY at a time. */
  private async refreshPage(
    candidates: RefreshCandidate[],
    providersOf: Map<string, string[]>,
    summary: RefreshSummary,
    onFailure: RefreshFailureFn,
    onDone: () => void,
  ): Promise<void> {
    const idsOf = new Map(candidates.map((c) => [c.id, resolveIdentifiers(c)]));
    const answers = await this.batchLookUps(candidates, idsOf, providersOf);
    let next = 0;
    const worker = async () => {
      while (next < candidates.length) {
        const article = candidates[next++]!;
        const ids = idsOf.get(article.id)!;
        const writes: MetricValueWrite[] = [];
        for (const [metricKey, previous] of Object.entries(article.stale)) {
          const failures: string[] = [];
          const found = await this.lookUp(
            providersOf.get(metricKey) ?? [],
            ids,
            article.id,
            answers,
            failures,
          );
          if (found === 'failed') {
            summary.failed++;
            onFailure({ articleId: article.id, metricKey, message: failures.join('; ') });
            continue;
          }
          writes.push({ articleId: article.id, metricKey, ...found, refreshedAt: this.clock.now() });
          // no row yet and no value found is no change: only a value that differs counts
          if ((previous ?? null) === found.value) summary.unchanged++;
          else summary.updated++;
          const key = found.source ?? 'none';
          summary.by_source[key] = (summary.by_source[key] ?? 0) + 1;
        }
        if (writes.length) await this.store.upsert(writes);
        onDone();
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, candidates.length) }, worker));
  }

  /**
   * One batch request per page (split by the source at its limit) for each source with a batch
   * endpoint that some due value of BATCH_FROM or more articles would ask, instead of one request
   * per article. A failed batch counts as that source failing for each of those articles.
   */
  private async batchLookUps(
    candidates: RefreshCandidate[],
    idsOf: Map<string, ArticleIdentifiers>,
    providersOf: Map<string, string[]>,
  ): Promise<PageAnswers> {
    const answers: PageAnswers = new Map();
    for (const source of this.sources.values()) {
      if (!source.citationsBatch) continue;
      const due = candidates.filter(
        (c) =>
          source.canLookUp(idsOf.get(c.id)!) &&
          Object.keys(c.stale).some((k) => providersOf.get(k)?.includes(source.provider)),
      );
      if (due.length < BATCH_FROM) continue;
      try {
        const values = await source.citationsBatch(due.map((c) => idsOf.get(c.id)!));
        answers.set(source.provider, new Map(due.map((c, i) => [c.id, values[i] ?? null])));
      } catch (err) {
        answers.set(source.provider, 'failed');
        this.logger.warn({
          event: 'metrics.source_failed',
          provider: source.provider,
          articles: due.length,
          err,
        });
      }
    }
    return answers;
  }

  /** First non-null value in priority order; `failed` only when no source answered at all. */
  private async lookUp(
    providers: string[],
    ids: ArticleIdentifiers,
    articleId: string,
    answers: PageAnswers,
    failures: string[] = [],
  ): Promise<{ value: number | null; source: string | null } | 'failed'> {
    let answered = false;
    let tried = false;
    for (const provider of providers) {
      const source = this.sources.get(provider);
      if (!source || !source.canLookUp(ids)) continue;
      tried = true;
      const batch = answers.get(provider);
      if (batch === 'failed') {
        failures.push(`${provider}: the batch lookup failed`);
        continue;
      }
      try {
        const value = batch?.has(articleId) ? batch.get(articleId)! : await source.citations(ids);
        answered = true;
        if (value !== null) return { value, source: provider };
      } catch (err) {
        this.logger.warn({ event: 'metrics.source_failed', provider, article_id: articleId, err });
        const message = err instanceof Error ? err.message : String(err);
        failures.push(message.startsWith(provider) ? message : `${provider}: ${message}`);
      }
    }
    // no source could look the article up (no identifier): null, so it waits until stale again
    return answered || !tried ? { value: null, source: null } : 'failed';
  }
}
