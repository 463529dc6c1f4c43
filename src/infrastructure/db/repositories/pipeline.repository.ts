import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type {
  ArticlePatch,
  ArticleStore,
  NewArticle,
  PipelineArticle,
  RunRecord,
  RunStatus,
  RunStore,
} from '../../../application/pipeline/pipeline.ports.js';
import {
  emptyKnownKeys,
  titleKey,
  type DuplicateSkip,
  type KnownKeys,
} from '../../../application/pipeline/dedup.js';
import type { Db } from '../client.js';
import { articles, scraperRuns, scraperSkips } from '../schema/index.js';

const CHUNK = 500;
const chunks = <T>(items: T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export class DrizzleArticleStore implements ArticleStore {
  constructor(private readonly db: Db) {}

  async knownKeys(keys: {
    urls: string[];
    dois: string[];
    arxivIds: string[];
    titles: string[];
  }): Promise<KnownKeys> {
    const known = emptyKnownKeys();
    const size = Math.max(keys.urls.length, keys.dois.length, keys.arxivIds.length, keys.titles.length);
    for (let i = 0; i < size; i += CHUNK) {
      const part = (l: string[]) => l.slice(i, i + CHUNK);
      const conds: SQL[] = [];
      if (part(keys.urls).length) conds.push(inArray(articles.canonicalUrl, part(keys.urls)));
      if (part(keys.dois).length) conds.push(inArray(articles.doi, part(keys.dois)));
      if (part(keys.arxivIds).length) conds.push(inArray(articles.arxivId, part(keys.arxivIds)));
      if (part(keys.titles).length) conds.push(inArray(articles.normalizedTitle, part(keys.titles)));
      if (!conds.length) continue;
      const rows = await this.db
        .select({
          canonicalUrl: articles.canonicalUrl,
          doi: articles.doi,
          arxivId: articles.arxivId,
          normalizedTitle: articles.normalizedTitle,
        })
        .from(articles)
        .where(or(...conds));
      for (const r of rows) {
        known.url.set(r.canonicalUrl, r.canonicalUrl);
        if (r.doi) known.doi.set(r.doi, r.canonicalUrl);
        if (r.arxivId) known.arxiv_id.set(r.arxivId, r.canonicalUrl);
        const t = titleKey(r.normalizedTitle);
        if (t) known.title.set(t, r.canonicalUrl);
      }
    }
    return known;
  }

  async insertMany(rows: NewArticle[]): Promise<{ id: string; canonicalUrl: string }[]> {
    const out: { id: string; canonicalUrl: string }[] = [];
    for (const part of chunks(rows)) {
      if (!part.length) continue;
      const inserted = await this.db
        .insert(articles)
        .values(
          part.map((a) => ({
            topicId: a.topicId,
            sourceId: a.sourceId,
            source: a.source,
            url: a.url,
            canonicalUrl: a.canonicalUrl,
            title: a.title,
            normalizedTitle: a.normalizedTitle,
            author: a.author,
            content: a.content,
            doi: a.doi,
            arxivId: a.arxivId,
            metadata: a.metadata,
            publishedAt: a.publishedAt,
            runId: a.runId,
          })),
        )
        .onConflictDoNothing({ target: articles.canonicalUrl })
        .returning({ id: articles.id, canonicalUrl: articles.canonicalUrl });
      out.push(...inserted);
    }
    return out;
  }

  async get(id: string): Promise<PipelineArticle | null> {
    const [r] = await this.db
      .select({
        id: articles.id,
        topicId: articles.topicId,
        source: articles.source,
        url: articles.url,
        title: articles.title,
        content: articles.content,
        summary: articles.summary,
        language: articles.language,
        metadata: articles.metadata,
      })
      .from(articles)
      .where(eq(articles.id, id));
    return r ?? null;
  }

  async update(id: string, patch: ArticlePatch): Promise<void> {
    const set: Record<string, unknown> = { updatedAt: new Date() };
    if (patch.content !== undefined) set.content = patch.content;
    if (patch.language !== undefined) set.language = patch.language;
    if (patch.summary !== undefined) set.summary = patch.summary;
    if (patch.processingStatus !== undefined) set.processingStatus = patch.processingStatus;
    if (patch.processingError !== undefined) set.processingError = patch.processingError;
    // merged in SQL so that two handlers never overwrite each other's keys
    if (patch.translations)
      set.translations = sql`${articles.translations} || ${JSON.stringify(patch.translations)}::jsonb`;
    if (patch.metadata) set.metadata = sql`${articles.metadata} || ${JSON.stringify(patch.metadata)}::jsonb`;
    await this.db.update(articles).set(set).where(eq(articles.id, id));
  }
}

const runOf = (r: typeof scraperRuns.$inferSelect): RunRecord => ({
  id: r.id,
  status: r.status,
  trigger: r.trigger,
  correlationId: r.correlationId,
  counts: r.counts,
  error: r.error,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
});

export class DrizzleRunStore implements RunStore {
  constructor(private readonly db: Db) {}

  async create(input: { trigger: string; correlationId: string }): Promise<RunRecord> {
    const [r] = await this.db.insert(scraperRuns).values(input).returning();
    return runOf(r!);
  }

  async finish(
    id: string,
    result: { status: RunStatus; counts: Record<string, number>; error: string | null },
  ): Promise<void> {
    await this.db
      .update(scraperRuns)
      .set({ status: result.status, counts: result.counts, error: result.error, finishedAt: new Date() })
      .where(eq(scraperRuns.id, id));
  }

  async get(id: string): Promise<RunRecord | null> {
    const [r] = await this.db.select().from(scraperRuns).where(eq(scraperRuns.id, id));
    return r ? runOf(r) : null;
  }

  async recordSkips(runId: string, skips: DuplicateSkip[]): Promise<void> {
    for (const part of chunks(skips)) {
      await this.db
        .insert(scraperSkips)
        .values(part.map((s) => ({ runId, url: s.url, reason: s.reason, duplicateOf: s.duplicateOf })));
    }
  }
}
