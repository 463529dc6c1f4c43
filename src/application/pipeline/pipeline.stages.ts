/**
 * The four run-level stages: discover (read the enabled sources' feeds), fetch (turn entries into
 * articles, reading the page of an entry that carries no text), dedup, and publish (store the new
 * articles and send one article job each). The wiring traces each stage from outside.
 */
import { feedProblemOf, isDue, type Source } from '../../domain/catalog.js';
import { messageOf } from '../../domain/errors.js';
import type { Logger } from '../shared/ports.js';
import { dedupCandidates, type DuplicateSkip } from './dedup.js';
import { canonicalizeUrl, extractArxivId, normalizeTitle, titleKey } from '../../domain/identifiers.js';
import { extractDoi } from '../../domain/doi.js';
import type { ArticleJobData } from './article-jobs.js';
import {
  FetchRefusedError,
  type ArticleStore,
  type FeedEntry,
  type FeedReader,
  type NewArticle,
  type NewSourceFetch,
  type PageReader,
  type RunScope,
  type RunStore,
  type SourceStore,
} from './pipeline.ports.js';

export interface RunInfo {
  id: string;
  correlationId: string;
  trigger: string;
  /** which sources the run reads (default: every enabled one) */
  scope?: RunScope;
}

/** A run while its stages work: its counts, written to the run record when publish is done. */
export interface RunContext extends RunInfo {
  counts: Record<string, number>;
  /**
   * Aborted when the process stops and the run's grace period has passed: the reads in flight are
   * abandoned, no other starts, and the stage throws the signal's reason (the run ends interrupted;
   * the sources it did not read are not recorded as failing)
   */
  signal?: AbortSignal;
}

const count = (run: RunContext, key: string, by = 1) => {
  run.counts[key] = (run.counts[key] ?? 0) + by;
};

export interface Discovery {
  sources: Source[];
  entries: { source: Source; entry: FeedEntry }[];
}

export interface DedupOutcome {
  fresh: NewArticle[];
  skipped: DuplicateSkip[];
}

/** The new articles' metadata repeats their identifiers: keep it current after a merge. */
const withIdentifiers = (a: NewArticle): NewArticle =>
  a.metadata.doi === a.doi && a.metadata.arxiv_id === a.arxivId
    ? a
    : { ...a, metadata: { ...a.metadata, doi: a.doi, arxiv_id: a.arxivId } };

export interface PipelineStages {
  discover(run: RunContext): Promise<Discovery>;
  fetch(run: RunContext, discovery: Discovery): Promise<NewArticle[]>;
  dedup(run: RunContext, candidates: NewArticle[]): Promise<DedupOutcome>;
  publish(run: RunContext, fresh: NewArticle[]): Promise<{ published: number }>;
}

export interface StageDeps {
  sources: SourceStore;
  feeds: FeedReader;
  pages: PageReader;
  articles: ArticleStore;
  runs: RunStore;
  /** where publish sends the new articles' jobs */
  jobs: { enqueue(refs: ArticleJobData[]): Promise<number> };
  logger: Logger;
  now(): Date;
  /** feeds read at once (the reader also limits requests per host) */
  concurrency?: number;
  /** after publish stored new articles (e.g. their citations are looked up now, not at the next tick) */
  onPublished?(count: number): void;
}

/** runs `fn` over `items`, `size` at a time; none starts once `signal` has aborted (its reason is thrown) */
async function pool<T, R>(
  items: T[],
  size: number,
  signal: AbortSignal | undefined,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      signal?.throwIfAborted();
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
  return out;
}

async function sourcesOf(store: SourceStore, scope: RunScope | undefined, now: Date): Promise<Source[]> {
  if (scope?.kind === 'source') {
    const one = await store.get(scope.sourceId);
    return one ? [one] : [];
  }
  const enabled = await store.listEnabled();
  return scope?.kind === 'due' ? enabled.filter((s) => isDue(s, now)) : enabled;
}

/** per source of the candidates, how many */
function perSource(items: { sourceId: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of items) counts.set(a.sourceId, (counts.get(a.sourceId) ?? 0) + 1);
  return counts;
}

/** title-only articles whose page a run reads again, at most */
const PAGES_PER_RUN = 50;

export function createStages(d: StageDeps): PipelineStages {
  const size = d.concurrency ?? 8;
  const log = d.logger;

  /**
   * Reads again the pages of the run's sources' title-only articles: an article whose page now
   * answers gets its text and runs its flow again as one of this run's articles.
   */
  async function reopenPages(run: RunContext, sources: Source[]): Promise<void> {
    const due = await d.articles.titleOnly(
      sources.map((s) => s.id),
      PAGES_PER_RUN,
    );
    const reopened: ArticleJobData[] = [];
    await pool(due, size, run.signal, async (a) => {
      try {
        const page = await d.pages.read(a.url, run.signal);
        if (!page.text) throw new Error('the page has no text');
        if (await d.articles.reopenWithPage(a.id, run.id, page.text))
          reopened.push({
            runId: run.id,
            articleId: a.id,
            topicId: a.topicId,
            url: a.url,
            source: a.source,
          });
      } catch (err) {
        if (run.signal?.aborted) throw err;
        await d.articles.pageMissed(a.id);
        log.info({ event: 'scraper.page.retry_failed', run_id: run.id, url: a.url, error: messageOf(err) });
      }
    });
    if (!reopened.length) return;
    count(run, 'pages_recovered', reopened.length);
    await d.jobs.enqueue(reopened);
  }

  return {
    async discover(run) {
      const sources = await sourcesOf(d.sources, run.scope, d.now());
      const results: NewSourceFetch[] = [];
      const perSourceEntries = await pool(sources, size, run.signal, async (source) => {
        const startedAt = d.now();
        const t0 = Date.now();
        const result = (r: Partial<NewSourceFetch>): NewSourceFetch => ({
          sourceId: source.id,
          runId: run.id,
          startedAt,
          durationMs: Date.now() - t0,
          httpStatus: null,
          itemsSeen: 0,
          itemsNew: 0,
          itemsDuplicate: 0,
          errorCode: null,
          error: null,
          ...r,
        });
        try {
          const res = await d.feeds.read(source, run.signal);
          if (res.notModified) {
            count(run, 'sources_not_modified');
            results.push(result({ httpStatus: res.status ?? 304 }));
            await d.sources.recordFetch(source.id, { lastFetchedAt: startedAt, lastError: null });
            return [];
          }
          const seen = res.entries.length;
          // the new and duplicate counts are known once the run has de-duplicated and stored them
          results.push(
            result({
              httpStatus: res.status ?? 200,
              itemsSeen: seen,
              itemsNew: seen ? null : 0,
              itemsDuplicate: seen ? null : 0,
            }),
          );
          await d.sources.recordFetch(source.id, {
            etag: res.etag,
            lastModified: res.lastModified,
            lastFetchedAt: startedAt,
            lastError: null,
          });
          return res.entries.map((entry) => ({ source, entry }));
        } catch (err) {
          if (run.signal?.aborted) throw err;
          count(run, 'sources_failed');
          const problem = feedProblemOf(err);
          log.warn({
            event: 'scraper.source.failed',
            run_id: run.id,
            source_id: source.id,
            url: source.url,
            error: messageOf(err),
          });
          results.push(
            result({
              httpStatus: problem.httpStatus ?? null,
              errorCode: problem.code,
              error: problem.message,
            }),
          );
          await d.sources.recordFetch(source.id, { lastFetchedAt: startedAt, lastError: messageOf(err) });
          return [];
        }
      });
      await d.sources.addFetchResults(results);
      const entries = perSourceEntries.flat();
      count(run, 'sources', sources.length);
      count(run, 'discovered', entries.length);
      return { sources, entries };
    },

    async fetch(run, discovery) {
      // an item without text whose URL is stored already is a duplicate: its page is not read (a
      // title-only one's page is read again by reopenPages)
      const textless = discovery.entries.filter(({ entry }) => !entry.content && !entry.summary);
      const stored = textless.length
        ? (
            await d.articles.knownKeys({
              urls: [...new Set(textless.map(({ entry }) => canonicalizeUrl(entry.url)))],
              dois: [],
              arxivIds: [],
              titles: [],
            })
          ).url
        : new Map<string, string>();
      const built = await pool(discovery.entries, size, run.signal, async ({ source, entry }) => {
        let { title, content } = entry;
        let titleOnly = false;
        if (!content && !entry.summary && !(entry.title.trim() && stored.has(canonicalizeUrl(entry.url)))) {
          try {
            const page = await d.pages.read(entry.url, run.signal);
            content = page.text || null;
            title ||= page.title ?? '';
          } catch (err) {
            if (run.signal?.aborted) throw err;
            // a page the SSRF guard would not reach is its own reason, apart from failed fetches
            const refused = err instanceof FetchRefusedError;
            count(run, refused ? 'fetch_refused' : 'fetch_failed');
            log.warn({
              event: refused ? 'scraper.page.refused' : 'scraper.page.failed',
              run_id: run.id,
              source_id: source.id,
              url: entry.url,
              error: messageOf(err),
            });
            // a refused page is not stored; one that failed is stored title-only, its page read
            // again by later runs (reopenPages)
            if (refused) return null;
            titleOnly = true;
          }
        }
        title = title.trim();
        if (!title || !/^https?:\/\//i.test(entry.url)) {
          count(run, 'invalid');
          return null;
        }
        const doi = entry.doi ?? extractDoi(entry.url);
        const arxivId = entry.arxivId ?? extractArxivId(entry.url);
        const article: NewArticle = {
          topicId: source.topicId,
          sourceId: source.id,
          source: source.name,
          url: entry.url,
          canonicalUrl: canonicalizeUrl(entry.url),
          title,
          normalizedTitle: normalizeTitle(title),
          author: entry.author,
          content: content ?? entry.summary,
          publishedAt: entry.publishedAt,
          doi,
          arxivId,
          metadata: {
            doi,
            arxiv_id: arxivId,
            feed_summary: entry.summary,
            // the feed's own HTML, sanitised when the reader view serves it (content is plain text later)
            content_html: (entry.html ?? entry.content ?? entry.summary)?.slice(0, 200_000) ?? null,
            categories: entry.categories,
            source_kind: source.kind,
            // the tries of its page so far
            ...(titleOnly ? { page_missing: 1 } : {}),
          },
          runId: run.id,
        };
        return article;
      });
      const fetched = built.filter((a): a is NewArticle => a !== null);
      count(run, 'fetched', fetched.length);
      const titleOnly = fetched.filter((a) => a.metadata.page_missing).length;
      if (titleOnly) count(run, 'title_only', titleOnly);
      await reopenPages(run, discovery.sources);
      return fetched;
    },

    async dedup(run, candidates) {
      const known = await d.articles.knownKeys({
        urls: [...new Set(candidates.map((c) => c.canonicalUrl))],
        dois: [...new Set(candidates.flatMap((c) => (c.doi ? [c.doi] : [])))],
        arxivIds: [...new Set(candidates.flatMap((c) => (c.arxivId ? [c.arxivId] : [])))],
        titles: [...new Set(candidates.flatMap((c) => titleKey(c.normalizedTitle) ?? []))],
      });
      const outcome = dedupCandidates(candidates, known);
      if (outcome.skipped.length) await d.runs.recordSkips(run.id, outcome.skipped);
      // each candidate is either fresh or a duplicate: a source's duplicates are the rest
      const fresh = perSource(outcome.fresh);
      const duplicates = perSource(candidates);
      for (const [id, n] of duplicates) duplicates.set(id, n - (fresh.get(id) ?? 0));
      await d.sources.setFetchCounts(run.id, 'itemsDuplicate', duplicates);
      // what the skipped copies bring to stored articles is written now; to the fresh ones it
      // travels with them (merged fields, `alsoIn`) into publish
      if (outcome.enrichments.length) {
        const n = await d.articles.enrich(outcome.enrichments);
        if (n) count(run, 'enriched', n);
      }
      if (outcome.links.length) {
        const n = await d.articles.linkTopics(outcome.links);
        if (n) count(run, 'topic_links', n);
      }
      count(run, 'duplicates', outcome.skipped.length);
      for (const reason of ['url', 'doi', 'arxiv_id', 'title'] as const) {
        const n = outcome.skipped.filter((s) => s.reason === reason).length;
        if (n) count(run, `duplicates_${reason}`, n);
      }
      return { fresh: outcome.fresh.map(withIdentifiers), skipped: outcome.skipped };
    },

    async publish(run, fresh) {
      const { inserted, refused } = await d.articles.insertMany(fresh);
      if (refused.length) {
        // one bad item never blocks the run: it is refused alone, with the database's reason
        count(run, 'refused', refused.length);
        for (const r of refused)
          log.warn({ event: 'scraper.article.refused', run_id: run.id, url: r.url, error: r.reason });
        await d.runs.recordSkips(
          run.id,
          refused.map((r) => ({ url: r.url, reason: 'refused', duplicateOf: null, detail: r.reason })),
        );
      }
      // the topics of other sources that carried an item in this run; and an item stored
      // meanwhile by someone else (its canonical URL won) still gains this source's topic
      const insertedUrls = new Set(inserted.map((r) => r.canonicalUrl));
      const refusedUrls = new Set(refused.map((r) => r.canonicalUrl));
      const links = fresh
        .filter((a) => !refusedUrls.has(a.canonicalUrl))
        .flatMap((a) =>
          [
            ...(insertedUrls.has(a.canonicalUrl) ? [] : [{ topicId: a.topicId, sourceId: a.sourceId }]),
            ...(a.alsoIn ?? []),
          ].map((t) => ({ canonicalUrl: a.canonicalUrl, ...t })),
        );
      if (links.length) {
        const n = await d.articles.linkTopics(links);
        if (n) count(run, 'topic_links', n);
      }
      const byUrl = new Map(fresh.map((a) => [a.canonicalUrl, a]));
      // one job per stored article: a crash before they are sent leaves them to the sweep
      await d.jobs.enqueue(
        inserted.map((row) => {
          const a = byUrl.get(row.canonicalUrl)!;
          return { runId: run.id, articleId: row.id, topicId: a.topicId, url: a.url, source: a.source };
        }),
      );
      count(run, 'published', inserted.length);
      await d.sources.setFetchCounts(
        run.id,
        'itemsNew',
        perSource(inserted.map((row) => byUrl.get(row.canonicalUrl)!)),
      );
      if (inserted.length) d.onPublished?.(inserted.length);
      return { published: inserted.length };
    },
  };
}
