import { sql, type SQL } from 'drizzle-orm';
import type {
  ArticleFilter,
  ArticleListQuery,
  ArticlePage,
  ArticleReadRepository,
  ArticleRef,
  EnabledMetrics,
} from '../../../application/articles/articles.ports.js';
import { uuidRange } from '../../../domain/greader.js';
import type {
  ArticleDetail,
  ArticleSort,
  ArticleSummary,
  ArticleTranslationView,
  ColumnSort,
  MetricDetail,
  SortOrder,
} from '../../../domain/articles.js';
import { AppError } from '../../../domain/errors.js';
import { buildSnippet, parseSearch } from '../../../domain/search.js';
import { rowsOf, type Db } from '../client.js';
import { executeKept } from '../kept-statements.js';
import { RELEVANCE_CANDIDATES, SNIPPET_FIELDS, searchMatch, searchRank } from './article-search.sql.js';
import { isReadSql, unreadSql } from './read-state.sql.js';

/**
 * `total` is exact up to this many matches; above it the planner's row estimate is returned, since
 * counting a million rows costs ~35 ms and the page itself ~1 ms (docs/decisions/0030-articles-list-query-shape.md).
 */
export const EXACT_TOTAL_CAP = 10_000;
/**
 * A filter found to match more than EXACT_TOTAL_CAP rows keeps its estimate this long: its next
 * pages skip both the capped count and the EXPLAIN (the total is an estimate anyway).
 */
export const ESTIMATE_TTL_MS = 60_000;
const ESTIMATES_MAX = 1_000;
/**
 * A search's statements (page, count) are cancelled on PostgreSQL past this: a query the bounds of
 * article-search.sql.ts still let through answers 422 `search_too_broad` instead of holding a
 * connection. PGlite cannot cancel a statement; there the bounds alone hold.
 */
export const SEARCH_TIMEOUT_MS = 3_000;

const SUMMARY_COLUMNS = sql.raw(
  'a.id, a.topic_id, a.title, a.url, a.source, a.summary, a.published_at, a.scraped_at, a.language, a.doi, a.arxiv_id, a.work_id',
);

interface SummaryRow {
  id: string;
  topic_id: string;
  title: string;
  url: string;
  source: string;
  summary: string | null;
  published_at: Date | string | null;
  scraped_at: Date | string;
  language: string | null;
  doi: string | null;
  arxiv_id: string | null;
  work_id: string | null;
}
interface DecoratedRow extends SummaryRow {
  work_versions: number | string;
  work_coverage: number | string | null;
  view_count: number | null;
  tags: string[] | string;
  metrics: Record<string, number | string> | string;
  is_favorited: boolean | string;
  is_read: boolean | string;
  /** with q: [zh-TW title, zh-TW summary, content start] */
  search_fields?: (string | null)[] | string;
}
interface DetailColumns {
  content: string | null;
  author: string | null;
  translations: Record<string, ArticleTranslationView> | string | null;
  row_version: string;
  metric_details:
    { key: string; value: number | string; source: string | null; fetched_at: string | null }[] | string;
}

/** PostgreSQL's query_canceled (statement_timeout), possibly wrapped by the ORM */
function isQueryCanceled(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === '57014') return true;
    e = e.cause as typeof e;
  }
  return false;
}

const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** How many candidates one statement ranks, and how many snippet fields it reads (PGlite). */
export interface SearchChunks {
  rank: number;
  snippets: number;
}
interface RankedRow {
  id: string;
  rank: number | string;
  /** scraped_at in microseconds */
  usec: string;
}
/**
 * relevancePageSql's order: rank, scraped_at, id, all descending. The rank comes as float8 (exact
 * for ts_rank_cd's real), scraped_at in whole microseconds, and a uuid orders as its hex text.
 */
const byRelevance = (
  a: { id: string; rank: number; usec: bigint },
  b: { id: string; rank: number; usec: bigint },
) =>
  b.rank - a.rank ||
  (b.usec > a.usec ? 1 : b.usec < a.usec ? -1 : 0) ||
  (b.id > a.id ? 1 : b.id < a.id ? -1 : 0);
/** a text literal cast to an array type: one parameter whatever the length, on both drivers */
export const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;
export function whereOf(f: ArticleFilter, phraseCandidates: number | null = null): SQL {
  const parts: SQL[] = [sql`true`];
  // topic filter: every topic whose sources carried the article, not only its primary one
  // (article_topics; a semi-join probing its (article_id, topic_id) key, docs/decisions/0035-topics-and-duplicates.md)
  if (f.topicId)
    parts.push(
      sql`exists (select 1 from article_topics lt where lt.article_id = a.id and lt.topic_id = ${f.topicId})`,
    );
  if (f.source) parts.push(sql`a.source = ${f.source}`);
  if (f.sourceId) parts.push(sql`a.source_id = ${f.sourceId}`);
  if (f.q) parts.push(searchMatch(f.q, phraseCandidates));
  if (f.unreadFor) parts.push(unreadSql(f.unreadFor));
  if (f.since) parts.push(sql`coalesce(a.published_at, a.scraped_at) >= ${f.since.toISOString()}`);
  if (f.until) parts.push(sql`coalesce(a.published_at, a.scraped_at) < ${f.until.toISOString()}`);
  if (f.after) {
    // the row's own values, not a copy in the cursor: scraped_at keeps microseconds a Date drops
    const cursor = sql`(select c.scraped_at, c.id from articles c where c.id = ${f.after.id})`;
    parts.push(
      f.after.order === 'asc' ? sql`(a.scraped_at, a.id) > ${cursor}` : sql`(a.scraped_at, a.id) < ${cursor}`,
    );
  }
  if (f.tag)
    parts.push(
      sql`exists (select 1 from article_tags at join tags t on t.id = at.tag_id where at.article_id = a.id and t.name = ${f.tag})`,
    );
  if (f.favoritesOf)
    parts.push(
      sql`exists (select 1 from favorites f where f.article_id = a.id and f.user_id = ${f.favoritesOf})`,
    );
  // one row per work: an article alone in its work, or the head of its work (docs/decisions/0125-works.md)
  if (f.collapse === 'work') parts.push(collapseToWork(f));
  return sql.join(parts, sql` and `);
}

/**
 * One row per work: an article alone in its work, or its work's head. A topic or source filter the
 * head does not pass would hide the whole work although a version passes it (a preprint in the
 * topic, its journal version only in another): then the work's first version (by id) passing the
 * filter stands for it. Marks (read, favorite) are on every version (decision 0143), so the unread
 * and favorites filters need no such care; a search matching only a non-head version still does
 * not show the work (decision 0125).
 */
function collapseToWork(f: ArticleFilter): SQL {
  const passes = (alias: string): SQL | null => {
    const parts: SQL[] = [];
    const col = sql.raw(alias);
    if (f.topicId)
      parts.push(
        sql`exists (select 1 from article_topics vt where vt.article_id = ${col}.id and vt.topic_id = ${f.topicId})`,
      );
    if (f.source) parts.push(sql`${col}.source = ${f.source}`);
    if (f.sourceId) parts.push(sql`${col}.source_id = ${f.sourceId}`);
    return parts.length ? sql.join(parts, sql` and `) : null;
  };
  const headPasses = passes('h');
  if (!headPasses)
    return sql`(a.work_id is null or exists (select 1 from works w where w.id = a.work_id and w.head_article_id = a.id))`;
  return sql`(a.work_id is null or exists (select 1 from works w where w.id = a.work_id and (w.head_article_id = a.id or (
    not exists (select 1 from articles h where h.id = w.head_article_id and ${headPasses})
    and not exists (select 1 from articles o where o.work_id = a.work_id and o.id < a.id and ${passes('o')})))))`;
}

/**
 * ORDER BY of a column sort, written to match an index exactly (schema/articles.ts): nullable
 * columns put NULLS LAST in both directions, and id breaks ties in the same direction.
 */
function columnOrder(column: Exclude<ColumnSort, 'view_count'>, order: SortOrder): SQL {
  const dir = sql.raw(order === 'asc' ? 'asc' : 'desc');
  const col = sql.raw(`a.${column}`);
  if (column === 'published_at') return sql`${col} ${dir} nulls last, a.id ${dir} nulls last`;
  return sql`${col} ${dir}, a.id ${dir}`;
}

/**
 * View count, tags, enabled metrics and is_favorited of the rows of `page`, as correlated
 * subqueries over the page only (it carries its own LIMIT): one statement per page, whatever its size.
 */
export function decorated(page: SQL, viewerId: string | null, extra = sql``): SQL {
  const favorited = viewerId
    ? sql`exists (select 1 from favorites f where f.user_id = ${viewerId} and f.article_id = p.id)`
    : sql`false`;
  return sql`select p.*${extra},
    (select v.view_count from article_view_counts v where v.article_id = p.id) as view_count,
    coalesce((select json_agg(t.name order by t.name) from article_tags at join tags t on t.id = at.tag_id
              where at.article_id = p.id), '[]'::json) as tags,
    coalesce((select json_object_agg(m.metric_key, m.value order by m.metric_key) from article_metrics m
              join metric_definitions d on d.metric_key = m.metric_key and d.enabled
              where m.article_id = p.id and m.value is not null), '{}'::json) as metrics,
    ${favorited} as is_favorited,
    ${isReadSql(viewerId)} as is_read,
    case when p.work_id is null then 1
      else (select count(*)::int from articles wm where wm.work_id = p.work_id) end as work_versions,
    (select c.value from article_metrics c where c.article_id = p.id and c.metric_key = 'coverage_count') as work_coverage
    from (${page}) p`;
}

const parsed = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function summaryOf(r: DecoratedRow, terms?: readonly string[]): ArticleSummary {
  const metrics: Record<string, number> = {};
  for (const [k, v] of Object.entries(parsed(r.metrics))) metrics[k] = Number(v);
  return {
    id: r.id,
    topicId: r.topic_id,
    title: r.title,
    url: r.url,
    source: r.source,
    summary: r.summary,
    publishedAt: r.published_at === null ? null : date(r.published_at),
    scrapedAt: date(r.scraped_at),
    language: r.language,
    doi: r.doi,
    arxivId: r.arxiv_id,
    tags: parsed(r.tags),
    metrics,
    viewCount: r.view_count,
    isFavorited: r.is_favorited === true || r.is_favorited === 't',
    isRead: r.is_read === true || r.is_read === 't',
    snippet: terms ? buildSnippet([r.title, r.summary, ...parsed(r.search_fields ?? [])], terms) : null,
    work: {
      id: r.work_id ?? r.id,
      versions: Number(r.work_versions ?? 1),
      coverage: Number(r.work_coverage ?? 0),
    },
  };
}

/** enabled catalog metrics of the detail row `p`, with their source and fetch time */
const METRIC_DETAILS = sql`,
    coalesce((select json_agg(json_build_object('key', m.metric_key, 'value', m.value, 'source', m.source,
                'fetched_at', m.refreshed_at) order by d.priority, m.metric_key)
              from article_metrics m join metric_definitions d on d.metric_key = m.metric_key and d.enabled
              where m.article_id = p.id and m.value is not null), '[]'::json) as metric_details`;

export class DrizzleArticleRepository implements ArticleReadRepository {
  /** estimated totals of large filters, by filter, in insertion order (the oldest is evicted) */
  private readonly estimates = new Map<string, { total: number; until: number }>();

  private readonly searchTimeoutMs: number;
  private readonly relevanceCandidates: number;
  private readonly phraseCandidates: number | null;
  private readonly chunks: SearchChunks | null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    opts: {
      searchTimeoutMs?: number;
      relevanceCandidates?: number;
      phraseCandidates?: number | null;
      /** PGlite: a search's ranking and snippet fields in several short statements */
      chunks?: SearchChunks | null;
    } = {},
  ) {
    this.searchTimeoutMs = opts.searchTimeoutMs ?? SEARCH_TIMEOUT_MS;
    this.relevanceCandidates = opts.relevanceCandidates ?? RELEVANCE_CANDIDATES;
    this.phraseCandidates = opts.phraseCandidates ?? null;
    this.chunks = opts.chunks ?? null;
  }

  async list(q: ArticleListQuery): Promise<ArticlePage> {
    // the page and the total run side by side (two pool connections on PostgreSQL)
    const [rows, total] = await Promise.all([
      this.chunks && q.filter.q
        ? this.chunkedPage(q, this.chunks)
        : this.run(
            decorated(
              pageSql(q, this.relevanceCandidates, this.phraseCandidates),
              q.viewerId,
              q.filter.q ? SNIPPET_FIELDS : sql``,
            ),
            q.filter,
          ).then((res) => rowsOf<DecoratedRow>(res)),
      this.cachedTotal(q.filter),
    ]);
    const terms = q.filter.q ? parseSearch(q.filter.q).terms : undefined;
    return { items: rows.map((r) => summaryOf(r, terms)), total };
  }

  /**
   * The rows of a search's page in short statements (PGlite, where a statement holds the event
   * loop): the candidates' ids, their ranks `chunks.rank` at a time, merged here in the order
   * relevancePageSql gives (rank, then scraped_at, then id, all descending), the page's rows, and
   * their snippet fields `chunks.snippets` at a time. One transaction: the same snapshot, and the
   * search's statement timeout and index-only plans for every statement.
   */
  private async chunkedPage(q: ArticleListQuery, chunks: SearchChunks): Promise<DecoratedRow[]> {
    return this.inSearch(async (tx) => {
      let rows: DecoratedRow[];
      if (q.sort.kind === 'relevance' && q.filter.q) {
        const where = whereOf(q.filter, this.phraseCandidates);
        const candidates = rowsOf<{ id: string }>(
          await tx.execute(sql`select a.id from articles a where ${where} limit ${this.relevanceCandidates}`),
        ).map((r) => r.id);
        const rank = searchRank(q.filter.q);
        const ranked: RankedRow[] = [];
        for (let i = 0; i < candidates.length; i += chunks.rank)
          ranked.push(
            ...rowsOf<RankedRow>(
              await tx.execute(
                sql`select a.id, ${rank}::float8 as rank,
                      (extract(epoch from a.scraped_at) * 1000000)::bigint::text as usec
                    from articles a where a.id = any(${uuidArray(candidates.slice(i, i + chunks.rank))})`,
              ),
            ),
          );
        const ids = ranked
          .map((r) => ({ id: r.id, rank: Number(r.rank), usec: BigInt(r.usec) }))
          .sort(byRelevance)
          .slice(q.offset, q.offset + q.limit)
          .map((r) => r.id);
        if (!ids.length) return [];
        const byId = new Map(
          rowsOf<DecoratedRow>(
            await tx.execute(
              decorated(
                sql`select ${SUMMARY_COLUMNS} from articles a where a.id = any(${uuidArray(ids)})`,
                q.viewerId,
              ),
            ),
          ).map((r) => [r.id, r]),
        );
        rows = ids.flatMap((id) => byId.get(id) ?? []);
      } else
        rows = rowsOf<DecoratedRow>(
          await tx.execute(
            decorated(pageSql(q, this.relevanceCandidates, this.phraseCandidates), q.viewerId),
          ),
        );
      for (let i = 0; i < rows.length; i += chunks.snippets) {
        const part = rows.slice(i, i + chunks.snippets);
        const fields = new Map(
          rowsOf<{ id: string; search_fields: DecoratedRow['search_fields'] }>(
            await tx.execute(
              sql`select p.id${SNIPPET_FIELDS} from articles p where p.id = any(${uuidArray(part.map((r) => r.id))})`,
            ),
          ).map((r) => [r.id, r.search_fields]),
        );
        for (const r of part) r.search_fields = fields.get(r.id) ?? [];
      }
      return rows;
    });
  }

  async byIds(ids: readonly string[], viewerId: string | null) {
    if (!ids.length) return [];
    const rows = rowsOf<DecoratedRow>(
      await this.db.execute(
        decorated(
          sql`select ${SUMMARY_COLUMNS} from articles a where a.id = any(${uuidArray(ids)})`,
          viewerId,
        ),
      ),
    );
    const byId = new Map(rows.map((r) => [r.id, summaryOf(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async refs(filter: ArticleFilter, order: SortOrder, limit: number): Promise<ArticleRef[]> {
    const rows = rowsOf<{ id: string; usec: string | number }>(
      await this.run(
        sql`select a.id, (extract(epoch from a.scraped_at) * 1000000)::bigint::text as usec
            from articles a where ${whereOf(filter)}
            order by ${columnOrder('scraped_at', order)} limit ${limit}`,
        filter,
      ),
    );
    return rows.map((r) => ({ id: r.id, scrapedUsec: String(r.usec) }));
  }

  async resolveItemIds(hexes: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (!hexes.length) return found;
    // one primary-key range probe per id; the smallest uuid of a (rare) shared prefix wins
    const probes = [...new Set(hexes)].map((hex) => {
      const [low, high] = uuidRange(hex);
      return sql`(select ${hex} as hex, id from articles where id between ${low} and ${high} order by id limit 1)`;
    });
    for (let i = 0; i < probes.length; i += 500) {
      const rows = rowsOf<{ hex: string; id: string }>(
        await this.db.execute(sql.join(probes.slice(i, i + 500), sql` union all `)),
      );
      for (const r of rows) found.set(r.hex, r.id);
    }
    return found;
  }

  async get(id: string, viewerId: string | null) {
    const rows = rowsOf<DecoratedRow & DetailColumns>(
      await this.db.execute(
        decorated(
          sql`select ${SUMMARY_COLUMNS}, a.content, a.author, a.translations,
                a.xmin::text as row_version
              from articles a where a.id = ${id}`,
          viewerId,
          METRIC_DETAILS,
        ),
      ),
    );
    const row = rows[0];
    if (!row) return null;
    const detail: ArticleDetail = {
      ...summaryOf(row),
      content: row.content,
      author: row.author,
      translations: parsed(row.translations ?? {}),
      rowVersion: row.row_version,
      metricDetails: parsed(row.metric_details).map((m): MetricDetail => ({
        key: m.key,
        value: Number(m.value),
        source: m.source,
        fetchedAt: m.fetched_at ? new Date(m.fetched_at) : null,
      })),
    };
    return detail;
  }

  async rawHtml(id: string) {
    const [row] = rowsOf<{ raw_html: string | null }>(
      await this.db.execute(
        sql`select coalesce(a.metadata->>'content_html', a.metadata->>'feed_summary') as raw_html from articles a where a.id = ${id}`,
      ),
    );
    return row?.raw_html ?? null;
  }

  async exists(id: string) {
    return rowsOf(await this.db.execute(sql`select 1 from articles where id = ${id}`)).length > 0;
  }

  private async cachedTotal(filter: ArticleFilter): Promise<number> {
    const key = JSON.stringify([
      filter.topicId,
      filter.source,
      filter.sourceId,
      filter.q,
      filter.tag,
      filter.favoritesOf,
      filter.unreadFor,
      filter.since?.toISOString(),
      filter.until?.toISOString(),
      filter.after,
      filter.collapse,
    ]);
    const hit = this.estimates.get(key);
    if (hit && hit.until > this.now()) return hit.total;
    const total = await this.total(filter);
    this.estimates.delete(key);
    if (total > EXACT_TOTAL_CAP) {
      if (this.estimates.size >= ESTIMATES_MAX) this.estimates.delete(this.estimates.keys().next().value!);
      this.estimates.set(key, { total, until: this.now() + ESTIMATE_TTL_MS });
    }
    return total;
  }

  /** a statement of the list; a search's under SEARCH_TIMEOUT_MS (set local: this transaction only) */
  private async run(statement: SQL, filter: ArticleFilter) {
    if (!filter.q) return executeKept(this.db, statement);
    return this.inSearch((tx) => tx.execute(statement));
  }

  /** `work` in a search's transaction: each statement under SEARCH_TIMEOUT_MS, no sequential scan */
  private async inSearch<T>(work: (tx: Pick<Db, 'execute'>) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(async (tx) => {
        // The GIN indexes serve every search condition. The planner does not count the cost of
        // reading each article's out-of-line tsvector, so on a small or freshly loaded table it
        // prefers a sequential scan that reads them all (70 ms for 500 articles of 12 KB on PGlite).
        await tx.execute(
          sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(this.searchTimeoutMs))}`),
        );
        await tx.execute(sql`set local enable_seqscan = off`);
        return work(tx);
      });
    } catch (err) {
      if (isQueryCanceled(err))
        throw new AppError(
          'Invalid',
          'search_too_broad',
          'the search took too long: use fewer or more specific words',
          [{ path: '/q', message: 'too broad' }],
        );
      throw err;
    }
  }

  private async total(filter: ArticleFilter): Promise<number> {
    const where = whereOf(filter);
    const [counted] = rowsOf<{ n: number | string }>(
      await this.run(cappedCountSql(filter, this.phraseCandidates), filter),
    );
    const n = Number(counted?.n ?? 0);
    if (n <= EXACT_TOTAL_CAP) return n;
    const [plan] = rowsOf<Record<string, unknown>>(
      await this.db.execute(sql`explain (format json) select 1 from articles a where ${where}`),
    );
    const raw = plan ? Object.values(plan)[0] : null;
    const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as
      [{ Plan: { 'Plan Rows': number } }] | null;
    return Math.max(n, Math.round(doc?.[0]?.Plan['Plan Rows'] ?? 0));
  }
}

/** true when the topic is the filter's only condition (whatever fields the filter gains later) */
const topicOnly = (f: ArticleFilter): f is ArticleFilter & { topicId: string } =>
  !!f.topicId && Object.entries(f).every(([k, v]) => k === 'topicId' || v === undefined || v === null);

/**
 * Exact count of the matches, stopping at EXACT_TOTAL_CAP + 1. A topic alone is counted in its
 * link range (every link has its article: foreign key, cascade); through the articles it would be
 * a merge join over the articles' key (docs/decisions/0035-topics-and-duplicates.md).
 */
export const cappedCountSql = (filter: ArticleFilter, phraseCandidates: number | null = null): SQL =>
  topicOnly(filter)
    ? sql`select count(*)::int as n from (select 1 from article_topics lt where lt.topic_id = ${filter.topicId}
          limit ${EXACT_TOTAL_CAP + 1}) c`
    : sql`select count(*)::int as n from (select 1 from articles a where ${whereOf(filter, phraseCandidates)} limit ${EXACT_TOTAL_CAP + 1}) c`;

/**
 * A sort by a value kept in a side table (a metric in article_metrics, the view count in
 * article_view_counts): the table, the condition of a row that has a value, and the value.
 */
function sideSort(sort: ArticleSort): { table: SQL; has: SQL; value: SQL } | null {
  if (sort.kind === 'metric')
    return {
      table: sql`article_metrics`,
      has: sql`s.metric_key = ${sort.metricKey} and s.value is not null`,
      value: sql`s.value`,
    };
  if (sort.kind === 'relevance') return null;
  if (sort.column === 'view_count')
    return { table: sql`article_view_counts`, has: sql`true`, value: sql`s.view_count` };
  return null;
}

/** The rows of one page, in order, before decoration. */
export function pageSql(
  q: Omit<ArticleListQuery, 'viewerId'>,
  candidates = RELEVANCE_CANDIDATES,
  phraseCandidates: number | null = null,
): SQL {
  const where = whereOf(q.filter, phraseCandidates);
  if (q.sort.kind === 'relevance') return relevancePageSql(q, where, candidates);
  const side = sideSort(q.sort);
  if (!side) {
    const column = (q.sort as { column: Exclude<ColumnSort, 'view_count'> }).column;
    return sql`select ${SUMMARY_COLUMNS} from articles a where ${where}
               order by ${columnOrder(column, q.order)} limit ${q.limit} offset ${q.offset}`;
  }
  // Side-table sort: the rows with a value, read in (value, article_id) order from the side
  // table's sort index, then the rows without one in id order. UNION ALL without an outer
  // ORDER BY is an Append that runs its branches in order and stops as soon as the LIMIT is met,
  // so a page inside the first part never touches the second (docs/decisions/0030-articles-list-query-shape.md).
  const dir = sql.raw(q.order === 'asc' ? 'asc' : 'desc');
  const reach = q.limit + q.offset;
  return sql`select * from (
      (select ${SUMMARY_COLUMNS} from ${side.table} s join articles a on a.id = s.article_id
        where ${side.has} and ${where}
        order by ${side.value} ${dir}, s.article_id ${dir} limit ${reach})
      union all
      (select ${SUMMARY_COLUMNS} from articles a
        where not exists (select 1 from ${side.table} s where s.article_id = a.id and ${side.has})
          and ${where}
        order by a.id ${dir} limit ${reach})
    ) u limit ${q.limit} offset ${q.offset}`;
}

/**
 * Best matches first: the rank of at most RELEVANCE_CANDIDATES matching rows (the GIN indexes
 * find them; ranking every match of a very common word would read all of them), ties newest first.
 * On PGlite the repository reads the same page in short statements instead (chunkedPage).
 */
function relevancePageSql(q: Omit<ArticleListQuery, 'viewerId'>, where: SQL, candidates: number): SQL {
  const rank = q.filter.q ? searchRank(q.filter.q) : sql`0`;
  return sql`select c.* from (
      select ${SUMMARY_COLUMNS}, ${rank} as rank from articles a where ${where} limit ${candidates}
    ) c order by c.rank desc, c.scraped_at desc, c.id desc limit ${q.limit} offset ${q.offset}`;
}

/** Enabled keys of the metric catalog, read-only (the catalog itself belongs to the metrics area). */
export class DrizzleEnabledMetrics implements EnabledMetrics {
  constructor(private readonly db: Db) {}
  async enabledKeys() {
    const rows = rowsOf<{ metric_key: string }>(
      await this.db.execute(
        sql`select metric_key from metric_definitions where enabled order by priority, metric_key`,
      ),
    );
    return rows.map((r) => r.metric_key);
  }
}
