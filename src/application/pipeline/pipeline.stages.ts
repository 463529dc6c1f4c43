/**
 * The four run-level stages: discover (read the enabled sources' feeds), fetch (turn entries into
 * articles, reading the page of an entry that carries no text), dedup, and publish (store the new
 * articles and publish one ArticleScrapedEvent each). The wiring traces each stage from outside.
 */
import { feedProblemOf, isDue, type Source } from '../../domain/catalog.js';
import type { Logger } from '../shared/ports.js';
import {
  canonicalizeUrl,
  dedupCandidates,
  extractArxivId,
  extractDoi,
  normalizeTitle,
  titleKey,
  type DuplicateSkip,
} from './dedup.js';
import type { EventBatch } from './event-bus.js';
import type { PipelineEvents } from './pipeline.events.js';
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
import type { RunRegistry } from './run-registry.js';

export interface RunInfo {
  id: string;
  correlationId: string;
  trigger: string;
  /** which sources the run reads (default: every enabled one) */
  scope?: RunScope;
}

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
  discover(run: RunInfo): Promise<Discovery>;
  fetch(run: RunInfo, discovery: Discovery): Promise<NewArticle[]>;
  dedup(run: RunInfo, candidates: NewArticle[]): Promise<DedupOutcome>;
  publish(
    run: RunInfo,
    fresh: NewArticle[],
    batch: EventBatch<PipelineEvents>,
  ): Promise<{ published: number }>;
}

export interface StageDeps {
  sources: SourceStore;
  feeds: FeedReader;
  pages: PageReader;
  articles: ArticleStore;
  runs: RunStore;
  registry: RunRegistry;
  logger: Logger;
  now(): Date;
  /** feeds read at once (the reader also limits requests per host) */
  concurrency?: number;
}

async function pool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
  return out;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

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

export function createStages(d: StageDeps): PipelineStages {
  const size = d.concurrency ?? 8;
  const log = d.logger;

  return {
    async discover(run) {
      const sources = await sourcesOf(d.sources, run.scope, d.now());
      const results: NewSourceFetch[] = [];
      const perSourceEntries = await pool(sources, size, async (source) => {
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
          const res = await d.feeds.read(source);
          if (res.notModified) {
            d.registry.count(run.id, 'sources_not_modified');
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
          d.registry.count(run.id, 'sources_failed');
          const problem = feedProblemOf(err);
          log.warn({
            event: 'scraper.source.failed',
            run_id: run.id,
            source_id: source.id,
            url: source.url,
            error: message(err),
          });
          results.push(
            result({
              httpStatus: problem.httpStatus ?? null,
              errorCode: problem.code,
              error: problem.message,
            }),
          );
          await d.sources.recordFetch(source.id, { lastFetchedAt: startedAt, lastError: message(err) });
          return [];
        }
      });
      await d.sources.addFetchResults(results);
      const entries = perSourceEntries.flat();
      d.registry.count(run.id, 'sources', sources.length);
      d.registry.count(run.id, 'discovered', entries.length);
      return { sources, entries };
    },

    async fetch(run, discovery) {
      const built = await pool(discovery.entries, size, async ({ source, entry }) => {
        let { title, content } = entry;
        if (!content && !entry.summary) {
          try {
            const page = await d.pages.read(entry.url);
            content = page.text || null;
            title ||= page.title ?? '';
          } catch (err) {
            // a page the SSRF guard would not reach is its own reason, apart from failed fetches
            const refused = err instanceof FetchRefusedError;
            d.registry.count(run.id, refused ? 'fetch_refused' : 'fetch_failed');
            log.warn({
              event: refused ? 'scraper.page.refused' : 'scraper.page.failed',
              run_id: run.id,
              source_id: source.id,
              url: entry.url,
              error: message(err),
            });
            return null;
          }
        }
        title = title.trim();
        if (!title || !/^https?:\/\//i.test(entry.url)) {
          d.registry.count(run.id, 'invalid');
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
          },
          runId: run.id,
        };
        return article;
      });
      const fetched = built.filter((a): a is NewArticle => a !== null);
      d.registry.count(run.id, 'fetched', fetched.length);
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
        if (n) d.registry.count(run.id, 'enriched', n);
      }
      if (outcome.links.length) {
        const n = await d.articles.linkTopics(outcome.links);
        if (n) d.registry.count(run.id, 'topic_links', n);
      }
      d.registry.count(run.id, 'duplicates', outcome.skipped.length);
      for (const reason of ['url', 'doi', 'arxiv_id', 'title'] as const) {
        const n = outcome.skipped.filter((s) => s.reason === reason).length;
        if (n) d.registry.count(run.id, `duplicates_${reason}`, n);
      }
      return { fresh: outcome.fresh.map(withIdentifiers), skipped: outcome.skipped };
    },

    async publish(run, fresh, batch) {
      const { inserted, refused } = await d.articles.insertMany(fresh);
      if (refused.length) {
        // one bad item never blocks the run: it is refused alone, with the database's reason
        d.registry.count(run.id, 'refused', refused.length);
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
        if (n) d.registry.count(run.id, 'topic_links', n);
      }
      const byUrl = new Map(fresh.map((a) => [a.canonicalUrl, a]));
      for (const row of inserted) {
        const a = byUrl.get(row.canonicalUrl)!;
        d.registry.get(run.id).articles.set(row.id, {
          id: row.id,
          topicId: a.topicId,
          source: a.source,
          url: a.url,
          title: a.title,
          content: a.content,
          summary: null,
          language: null,
          metadata: a.metadata,
        });
        batch.publish('article.scraped', {
          runId: run.id,
          articleId: row.id,
          topicId: a.topicId,
          url: a.url,
          source: a.source,
        });
      }
      d.registry.count(run.id, 'published', inserted.length);
      await d.sources.setFetchCounts(
        run.id,
        'itemsNew',
        perSource(inserted.map((row) => byUrl.get(row.canonicalUrl)!)),
      );
      return { published: inserted.length };
    },
  };
}
