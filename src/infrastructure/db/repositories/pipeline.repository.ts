import { and, eq, gt, gte, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type {
  ArticlePatch,
  ArticleStore,
  ArticleWrite,
  InsertOutcome,
  NewArticle,
  PipelineArticle,
  RunStore,
  SkipRecord,
  TitleOnlyArticle,
} from '../../../application/pipeline/pipeline.ports.js';
import { PAGE_TRIES } from '../../../application/pipeline/pipeline.ports.js';
import { PENDING_SQL } from './article-states.repository.js';
import {
  emptyKnownKeys,
  takesSharedKey,
  type Enrichment,
  type KnownKeys,
  type TopicLink,
} from '../../../application/pipeline/dedup.js';
import { titleKey } from '../../../domain/identifiers.js';
import { rowsOf, type Db } from '../client.js';
import { errorText, isRowError, storableText, unstorable } from '../safe-text.js';
import { ArticlePatchBatch } from './article-patch-batch.js';
import { storableJsonText } from '../storable-params.js';
import { articles, scraperRuns, scraperSkips } from '../schema/index.js';
import { DrizzleRunRepository } from './run.repository.js';

const CHUNK = 500;
/** a text[] parameter (nulls kept), one parameter whatever the length, on both drivers */
const textArray = (values: (string | null)[]) => sql`${sql.param(values)}::text[]`;
/** uuid[] comes back as an array from node-postgres and PGlite, as '{a,b}' from some paths */
const uuidList = (v: string[] | string): string[] =>
  Array.isArray(v)
    ? v
    : v
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);
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
  [articles.metadata.name, 'jsonb', (a) => storableJsonText(a.metadata)],
  [articles.publishedAt.name, 'timestamptz', (a) => a.publishedAt?.toISOString() ?? null],
  [articles.runId.name, 'uuid', (a) => a.runId],
];

/**
 * One `insert ... select from unnest(...)` with an array per column: 14 parameters instead of 14
 * per row, which is what made the publish stage slow to build and bind. The same statement adds
 * the stored rows to their run's pending-article count (and progress total): an article cannot be
 * stored without its run waiting for it.
 */
const insert = (part: NewArticle[]): SQL =>
  sql`with ins as (
      insert into ${articles} (${sql.join(
        INSERTED.map(([column]) => sql.identifier(column)),
        sql`, `,
      )}) select * from unnest(${sql.join(
        INSERTED.map(([, type, value]) => sql`${sql.param(part.map(value))}::${sql.raw(type)}[]`),
        sql`, `,
      )}) on conflict (${sql.identifier(articles.canonicalUrl.name)}) do nothing
      returning id, canonical_url, run_id),
    held as (
      update ${scraperRuns} as r
      set articles_pending = r.articles_pending + c.n, progress_total = r.progress_total + c.n
      from (select run_id, count(*)::int as n from ins where run_id is not null group by run_id) as c
      where r.id = c.run_id)
    select id as "id", canonical_url as "canonicalUrl" from ins`;

export class DrizzleArticleStore implements ArticleStore {
  private readonly patches: ArticlePatchBatch;

  /**
   * `keyChunk`: feed keys looked up per de-duplication statement. On PGlite every statement runs on
   * the event loop, so the embedded database asks in short statements (a turn of the loop between
   * them) rather than one of 500 keys of each kind that holds `/health` for tens of milliseconds.
   */
  constructor(
    private readonly db: Db,
    private readonly opts: { keyChunk?: number } = {},
  ) {
    this.patches = new ArticlePatchBatch(db);
  }

  async knownKeys(keys: {
    urls: string[];
    dois: string[];
    arxivIds: string[];
    titles: string[];
  }): Promise<KnownKeys> {
    const known = emptyKnownKeys();
    // a key the database cannot hold cannot match a stored article (and would fail the query)
    const storable = (l: string[]) => l.filter((k) => !unstorable(k));
    const [urls, dois, arxivIds, titles] = [keys.urls, keys.dois, keys.arxivIds, keys.titles].map(
      storable,
    ) as [string[], string[], string[], string[]];
    const size = Math.max(urls.length, dois.length, arxivIds.length, titles.length);
    const chunk = this.opts.keyChunk ?? CHUNK;
    for (let i = 0; i < size; i += chunk) {
      const part = (l: string[]) => l.slice(i, i + chunk);
      const conds: SQL[] = [];
      // one array parameter a kind of key, not a parameter a key
      const anyOf = (column: AnyColumn, l: string[]) => sql`${column} = any(${textArray(l)})`;
      if (part(urls).length) conds.push(anyOf(articles.canonicalUrl, part(urls)));
      if (part(dois).length) conds.push(anyOf(articles.doi, part(dois)));
      if (part(arxivIds).length) conds.push(anyOf(articles.arxivId, part(arxivIds)));
      if (part(titles).length) conds.push(anyOf(articles.normalizedTitle, part(titles)));
      if (!conds.length) continue;
      const rows = await this.db
        .select({
          canonicalUrl: articles.canonicalUrl,
          doi: articles.doi,
          arxivId: articles.arxivId,
          normalizedTitle: articles.normalizedTitle,
          publishedAt: articles.publishedAt,
          topicIds: sql<string[] | string>`array(select lt.topic_id from article_topics lt
            where lt.article_id = ${articles.id})`,
        })
        .from(articles)
        .where(or(...conds));
      for (const r of rows) {
        const a = { doi: r.doi, arxivId: r.arxivId, url: r.canonicalUrl };
        // of a preprint and its published version, the DOI and title point at the published one
        const learn = (reason: 'doi' | 'title', key: string | null) => {
          if (key && (!known[reason].has(key) || takesSharedKey(reason, a)))
            known[reason].set(key, r.canonicalUrl);
        };
        known.url.set(r.canonicalUrl, r.canonicalUrl);
        learn('doi', r.doi);
        if (r.arxivId) known.arxiv_id.set(r.arxivId, r.canonicalUrl);
        learn('title', titleKey(r.normalizedTitle));
        known.articles.set(r.canonicalUrl, {
          doi: r.doi,
          arxivId: r.arxivId,
          publishedAt: r.publishedAt,
          topicIds: uuidList(r.topicIds),
        });
      }
    }
    return known;
  }

  async insertMany(rows: NewArticle[]): Promise<InsertOutcome> {
    const outcome: InsertOutcome = { inserted: [], refused: [] };
    for (const part of chunks(rows)) if (part.length) await this.insertPart(part, outcome);
    return outcome;
  }

  /**
   * One statement for the part; when the database refuses a value in it (a NUL byte, a bad
   * date, a row too large for an index), the part is halved until the refused row stands alone,
   * so one bad item costs about 2·log2(500) statements and every other row is still stored.
   * Errors that are not about a row's values (the database is away) fail the whole insert.
   */
  private async insertPart(part: NewArticle[], outcome: InsertOutcome): Promise<void> {
    try {
      outcome.inserted.push(
        ...rowsOf<{ id: string; canonicalUrl: string }>(await this.db.execute(insert(part))),
      );
    } catch (err) {
      if (!isRowError(err)) throw err;
      if (part.length === 1) {
        const [a] = part;
        outcome.refused.push({ url: a!.url, canonicalUrl: a!.canonicalUrl, reason: errorText(err) });
        return;
      }
      const half = Math.ceil(part.length / 2);
      await this.insertPart(part.slice(0, half), outcome);
      await this.insertPart(part.slice(half), outcome);
    }
  }

  async linkTopics(links: TopicLink[]): Promise<number> {
    let added = 0;
    for (const part of chunks(links.filter((l) => !unstorable(l.canonicalUrl)))) {
      if (!part.length) continue;
      // sources or topics deleted meanwhile are left out rather than failing the statement
      const [row] = rowsOf<{ n: number | string }>(
        await this.db.execute(sql`
          with added as (
            insert into article_topics (article_id, topic_id, source_id)
            select a.id, t.id, s.id
            from unnest(${textArray(part.map((l) => l.canonicalUrl))},
                        ${textArray(part.map((l) => l.topicId))}::uuid[],
                        ${textArray(part.map((l) => l.sourceId))}::uuid[]) as x(url, topic_id, source_id)
            join articles a on a.canonical_url = x.url
            join topics t on t.id = x.topic_id
            left join sources s on s.id = x.source_id
            on conflict (article_id, topic_id) do nothing
            returning 1)
          select count(*)::int as n from added`),
      );
      added += Number(row?.n ?? 0);
    }
    return added;
  }

  async enrich(enrichments: Enrichment[]): Promise<number> {
    let changed = 0;
    // an identifier the database cannot hold is not offered (it would fail the whole statement)
    const storable = (v: string | null) => (v !== null && !unstorable(v) ? v : null);
    const clean = enrichments
      .filter((e) => !unstorable(e.canonicalUrl))
      .map((e) => ({ ...e, doi: storable(e.doi), arxivId: storable(e.arxivId) }));
    for (const part of chunks(clean)) {
      if (!part.length) continue;
      // Only what the stored row lacks is filled (coalesce, also against a concurrent writer).
      // An article that gains an identifier has its metric values marked stale, so the next
      // metric refresh looks it up (a value stored as null "no identifier" would wait a day).
      const [row] = rowsOf<{ n: number | string }>(
        await this.db.execute(sql`
          with x as (
            select * from unnest(${textArray(part.map((e) => e.canonicalUrl))},
                                 ${textArray(part.map((e) => e.doi))},
                                 ${textArray(part.map((e) => e.arxivId))},
                                 ${textArray(part.map((e) => e.publishedAt?.toISOString() ?? null))}::timestamptz[])
              as x(url, doi, arxiv_id, published_at)),
          t as (
            select a.id, x.doi, x.arxiv_id, x.published_at,
                   (a.doi is null and x.doi is not null)
                     or (a.arxiv_id is null and x.arxiv_id is not null) as gains_id
            from articles a join x on a.canonical_url = x.url
            where (a.doi is null and x.doi is not null)
               or (a.arxiv_id is null and x.arxiv_id is not null)
               or (a.published_at is null and x.published_at is not null)),
          u as (
            update articles a set
              doi = coalesce(a.doi, t.doi),
              arxiv_id = coalesce(a.arxiv_id, t.arxiv_id),
              published_at = coalesce(a.published_at, t.published_at),
              metadata = a.metadata || jsonb_strip_nulls(jsonb_build_object(
                'doi', case when a.doi is null then t.doi end,
                'arxiv_id', case when a.arxiv_id is null then t.arxiv_id end)),
              updated_at = now()
            from t where a.id = t.id
            returning a.id),
          due as (
            update article_metrics m set refreshed_at = 'epoch'
            from t where m.article_id = t.id and t.gains_id)
          select count(*)::int as n from u`),
      );
      changed += Number(row?.n ?? 0);
    }
    return changed;
  }

  async titleOnly(sourceIds: string[], limit: number): Promise<TitleOnlyArticle[]> {
    if (!sourceIds.length) return [];
    return rowsOf<TitleOnlyArticle>(
      await this.db.execute(sql`
        select id, url, topic_id as "topicId", source from ${articles}
        where source_id = any(${textArray(sourceIds)}::uuid[])
          and metadata ? 'page_missing' and (metadata->>'page_missing')::int < ${PAGE_TRIES}
          and not ${PENDING_SQL}
        order by scraped_at desc
        limit ${limit}`),
    );
  }

  async reopenWithPage(id: string, runId: string, text: string): Promise<boolean> {
    // a title-only article whose flow has ended starts it again (canReopen) in this run
    const [row] = rowsOf<{ n: number }>(
      await this.db.execute(sql`
        with re as (
          update ${articles} set content = ${storableText(text, 200_000)},
            metadata = metadata - 'page_missing', processing_status = 'new', processing_error = null,
            run_id = ${runId}, updated_at = now()
          where id = ${id} and metadata ? 'page_missing' and not ${PENDING_SQL}
          returning run_id),
        held as (
          update ${scraperRuns} as r
          set articles_pending = r.articles_pending + 1, progress_total = r.progress_total + 1
          from re where r.id = re.run_id)
        select count(*)::int as n from re`),
    );
    return Number(row?.n ?? 0) > 0;
  }

  async pageMissed(id: string): Promise<void> {
    await this.db.execute(sql`
      update ${articles}
      set metadata = jsonb_set(metadata, '{page_missing}',
                               to_jsonb(coalesce((metadata->>'page_missing')::int, 0) + 1))
      where id = ${id} and metadata ? 'page_missing'`);
  }

  async getMany(ids: string[]): Promise<PipelineArticle[]> {
    if (!ids.length) return [];
    return this.db
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
        translations: articles.translations,
        processingStatus: articles.processingStatus,
      })
      .from(articles)
      .where(inArray(articles.id, ids));
  }

  /** concurrent flows' patches share statements (article-patch-batch.ts) */
  update(id: string, patch: ArticlePatch): Promise<ArticleWrite> {
    return this.patches.write(id, patch);
  }
}

/** The scraper's runs: the generic run records plus the duplicates each run skipped. */
export class DrizzleRunStore extends DrizzleRunRepository implements RunStore {
  /**
   * `skipChunk`: skips written per statement. On PGlite every statement runs on the event loop:
   * the embedded database writes a run's skips in short statements (a turn of the loop between
   * them) rather than one of 500 rows that holds `/health` for about 10 ms.
   */
  constructor(
    db: Db,
    secrets: readonly string[] = [],
    private readonly opts: { skipChunk?: number } = {},
  ) {
    super(db, secrets);
  }

  /**
   * One `insert ... select from unnest(...)` a part, an array parameter a column: as a multi-row
   * insert, a run that found its 420 items known built and bound 2,100 parameters, 25–85 ms of
   * the event loop on PGlite (docs/performance.md, health.during_parse).
   */
  async recordSkips(runId: string, skips: SkipRecord[]): Promise<void> {
    const column = (c: AnyColumn) => sql.identifier(c.name);
    for (const part of chunks(skips, this.opts.skipChunk)) {
      await this.db.execute(sql`
        insert into ${scraperSkips} (${column(scraperSkips.runId)}, ${column(scraperSkips.url)},
          ${column(scraperSkips.reason)}, ${column(scraperSkips.duplicateOf)}, ${column(scraperSkips.detail)})
        select ${runId}::uuid, * from unnest(
          ${textArray(part.map((s) => storableText(s.url)))},
          ${textArray(part.map((s) => s.reason))},
          ${textArray(part.map((s) => (s.duplicateOf === null ? null : storableText(s.duplicateOf))))},
          ${textArray(part.map((s) => ('detail' in s ? storableText(s.detail, 500) : null)))})`);
    }
  }

  async holdArticles(runId: string): Promise<void> {
    await this.db
      .update(scraperRuns)
      .set({ articlesPending: sql`${scraperRuns.articlesPending} + 1` })
      .where(eq(scraperRuns.id, runId));
  }

  async releaseArticles(runId: string, counts: Record<string, number>): Promise<boolean> {
    const [run] = await this.db
      .update(scraperRuns)
      .set({
        articlesPending: sql`${scraperRuns.articlesPending} - 1`,
        counts: sql`${scraperRuns.counts} || ${JSON.stringify(counts)}::jsonb`,
        heartbeatAt: new Date(),
      })
      .where(eq(scraperRuns.id, runId))
      .returning({ pending: scraperRuns.articlesPending });
    return run?.pending === 0;
  }

  async claimEnd(runId: string, whenDone: boolean): Promise<boolean> {
    // -1: taken; the article writes still to come take it further down, never back to 0
    const rows = await this.db
      .update(scraperRuns)
      .set({ articlesPending: -1 })
      .where(
        and(
          eq(scraperRuns.id, runId),
          inArray(scraperRuns.status, ['queued', 'running']),
          whenDone ? eq(scraperRuns.articlesPending, 0) : gte(scraperRuns.articlesPending, 0),
        ),
      )
      .returning({ id: scraperRuns.id });
    return rows.length > 0;
  }

  async endedOpen(): Promise<string[]> {
    const rows = await this.db
      .select({ id: scraperRuns.id })
      .from(scraperRuns)
      .where(
        and(
          eq(scraperRuns.kind, 'scrape'),
          inArray(scraperRuns.status, ['queued', 'running']),
          eq(scraperRuns.articlesPending, 0),
          gt(scraperRuns.progressTotal, 0),
        ),
      );
    return rows.map((r) => r.id);
  }
}
