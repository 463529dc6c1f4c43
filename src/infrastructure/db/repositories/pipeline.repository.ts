import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type {
  ArticlePatch,
  ArticleStore,
  NewArticle,
  PipelineArticle,
  RunStore,
} from '../../../application/pipeline/pipeline.ports.js';
import {
  emptyKnownKeys,
  titleKey,
  type DuplicateSkip,
  type KnownKeys,
} from '../../../application/pipeline/dedup.js';
import { rowsOf, type Db } from '../client.js';
import { ArticlePatchBatch } from './article-patch-batch.js';
import { articles, scraperSkips } from '../schema/index.js';
import { DrizzleRunRepository } from './run.repository.js';

const CHUNK = 500;
const chunks = <T>(items: T[], size = CHUNK): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** the inserted columns, each sent as one array parameter */
const INSERTED: [string, string, (a: NewArticle) => unknown][] = [
  [articles.topicId.name, 'uuid', (a) => a.topicId],
  [articles.sourceId.name, 'uuid', (a) => a.sourceId],
  [articles.source.name, 'text', (a) => a.source],
  [articles.url.name, 'text', (a) => a.url],
  [articles.canonicalUrl.name, 'text', (a) => a.canonicalUrl],
  [articles.title.name, 'text', (a) => a.title],
  [articles.normalizedTitle.name, 'text', (a) => a.normalizedTitle],
  [articles.author.name, 'text', (a) => a.author],
  [articles.content.name, 'text', (a) => a.content],
  [articles.doi.name, 'text', (a) => a.doi],
  [articles.arxivId.name, 'text', (a) => a.arxivId],
  [articles.metadata.name, 'jsonb', (a) => JSON.stringify(a.metadata)],
  [articles.publishedAt.name, 'timestamptz', (a) => a.publishedAt?.toISOString() ?? null],
  [articles.runId.name, 'uuid', (a) => a.runId],
];

/**
 * One `insert ... select from unnest(...)` with an array per column: 14 parameters instead of 14
 * per row, which is what made the publish stage slow to build and bind (DESIGN.md §6 budget).
 */
const insert = (part: NewArticle[]): SQL =>
  sql`insert into ${articles} (${sql.join(
    INSERTED.map(([column]) => sql.identifier(column)),
    sql`, `,
  )}) select * from unnest(${sql.join(
    INSERTED.map(([, type, value]) => sql`${sql.param(part.map(value))}::${sql.raw(type)}[]`),
    sql`, `,
  )}) on conflict (${sql.identifier(articles.canonicalUrl.name)}) do nothing
  returning ${sql.identifier(articles.id.name)} as "id", ${sql.identifier(articles.canonicalUrl.name)} as "canonicalUrl"`;

export class DrizzleArticleStore implements ArticleStore {
  private readonly patches: ArticlePatchBatch;

  constructor(private readonly db: Db) {
    this.patches = new ArticlePatchBatch(db);
  }

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
      if (part.length)
        out.push(...rowsOf<{ id: string; canonicalUrl: string }>(await this.db.execute(insert(part))));
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

  /** concurrent flows' patches share statements (article-patch-batch.ts) */
  update(id: string, patch: ArticlePatch): Promise<void> {
    return this.patches.write(id, patch);
  }
}

/** The scraper's runs: the generic run records plus the duplicates each run skipped. */
export class DrizzleRunStore extends DrizzleRunRepository implements RunStore {
  async recordSkips(runId: string, skips: DuplicateSkip[]): Promise<void> {
    for (const part of chunks(skips)) {
      await this.db
        .insert(scraperSkips)
        .values(part.map((s) => ({ runId, url: s.url, reason: s.reason, duplicateOf: s.duplicateOf })));
    }
  }
}
