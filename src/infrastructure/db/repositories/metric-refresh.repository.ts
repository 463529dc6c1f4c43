import { asc, eq, sql } from 'drizzle-orm';
import type {
  ArrivalCursor,
  MetricRefreshStore,
  MetricValueWrite,
  RefreshCandidate,
} from '../../../application/metrics/metrics.ports.js';
import { rowsOf, type Db } from '../client.js';
import { articleMetrics, metricDefinitions, systemSettings } from '../schema/index.js';

const ARRIVAL_CURSOR_KEY = 'metrics.arrival_cursor';
/**
 * article `a` may carry an identifier a citation source can use (resolveIdentifiers decides): the
 * columns, a doi.org / arxiv.org link, or such a key in its metadata
 */
export const mayHaveIdentifier = sql`(a.doi is not null or a.arxiv_id is not null
  or a.url ~* '(arxiv\.org/(abs|pdf)/|doi\.org/10\.)'
  or a.metadata::text ~* '"(doi|arxiv|arxiv_id|arxivId)"|arxiv\.org/(abs|pdf)/|doi\.org/10\.')`;

interface CandidateRow {
  id: string;
  doi: string | null;
  arxiv_id: string | null;
  url: string | null;
  metadata: Record<string, unknown> | null;
  metric_key: string;
  value: number | null;
  has_row: boolean;
}

const keyTable = (metricKeys: string[]) =>
  sql`unnest(array[${sql.join(
    metricKeys.map((k) => sql`${k}`),
    sql`, `,
  )}]::text[]) as k(metric_key)`;
/** the joined (article, key) pair has no row, or one refreshed before `staleBefore` */
const staleRow = (staleBefore: Date) =>
  sql`(m.article_id is null or m.refreshed_at < ${staleBefore.toISOString()}::timestamptz)`;
/** article `a` has a missing or stale value for one of the keys */
const isStale = (metricKeys: string[], staleBefore: Date) =>
  sql`exists (select 1 from ${keyTable(metricKeys)}
              left join article_metrics m on m.article_id = a.id and m.metric_key = k.metric_key
              where ${staleRow(staleBefore)})`;

export class DrizzleMetricRefreshStore implements MetricRefreshStore {
  constructor(private readonly db: Db) {}

  async enabledDefinitions() {
    const rows = await this.db
      .select({ metricKey: metricDefinitions.metricKey, sources: metricDefinitions.extractionSources })
      .from(metricDefinitions)
      .where(eq(metricDefinitions.enabled, true))
      .orderBy(asc(metricDefinitions.priority), asc(metricDefinitions.metricKey));
    // a metric without extraction sources (coverage_count) is written by its own area, not looked up
    return rows
      .filter((r) => (r.sources ?? []).length > 0)
      .map((r) => ({
        metricKey: r.metricKey,
        providers: [...r.sources].sort((a, b) => a.priority - b.priority).map((s) => s.provider),
      }));
  }

  async countCandidates(metricKeys: string[], staleBefore: Date): Promise<number> {
    if (!metricKeys.length) return 0;
    const [row] = rowsOf<{ n: number | string }>(
      await this.db.execute(
        sql`select count(*)::int as n from articles a where ${isStale(metricKeys, staleBefore)}`,
      ),
    );
    return Number(row?.n ?? 0);
  }

  async candidates(
    metricKeys: string[],
    staleBefore: Date,
    page: { after: string | null; limit: number },
  ): Promise<RefreshCandidate[]> {
    if (!metricKeys.length) return [];
    const after = page.after === null ? sql`true` : sql`a.id > ${page.after}`;
    const result = await this.db.execute(sql`
      with page as (
        select a.id from articles a
        where ${after} and ${isStale(metricKeys, staleBefore)}
        order by a.id limit ${page.limit})
      select a.id, a.doi, a.arxiv_id, a.url, a.metadata, k.metric_key, m.value,
             (m.article_id is not null) as has_row
      from page join articles a on a.id = page.id
      cross join ${keyTable(metricKeys)}
      left join article_metrics m on m.article_id = a.id and m.metric_key = k.metric_key
      where ${staleRow(staleBefore)}
      order by a.id, k.metric_key`);
    const byId = new Map<string, RefreshCandidate>();
    for (const r of rowsOf<CandidateRow>(result)) {
      let c = byId.get(r.id);
      if (!c) {
        c = { id: r.id, doi: r.doi, arxivId: r.arxiv_id, url: r.url, metadata: r.metadata ?? {}, stale: {} };
        byId.set(r.id, c);
      }
      c.stale[r.metric_key] = r.has_row ? (r.value === null ? null : Number(r.value)) : undefined;
    }
    return [...byId.values()];
  }

  async upsert(values: MetricValueWrite[]) {
    if (!values.length) return;
    await this.db
      .insert(articleMetrics)
      .values(values)
      .onConflictDoUpdate({
        target: [articleMetrics.articleId, articleMetrics.metricKey],
        set: {
          value: sql`excluded.value`,
          source: sql`excluded.source`,
          refreshedAt: sql`excluded.refreshed_at`,
        },
      });
  }

  async arrivals(metricKeys: string[], after: ArrivalCursor, since: Date, limit: number) {
    if (!metricKeys.length) return [];
    const at = after.at.toISOString();
    const result = await this.db.execute(sql`
      with page as (
        select a.id, a.scraped_at from articles a
        where (a.scraped_at, a.id) > (${at}::timestamptz, ${after.id}::uuid)
          and a.scraped_at >= ${since.toISOString()}::timestamptz
          and ${mayHaveIdentifier}
          and exists (select 1 from ${keyTable(metricKeys)}
                      left join article_metrics m on m.article_id = a.id and m.metric_key = k.metric_key
                      where m.article_id is null)
        order by a.scraped_at, a.id limit ${limit})
      select a.id, a.doi, a.arxiv_id, a.url, a.metadata, a.scraped_at, k.metric_key
      from page join articles a on a.id = page.id
      cross join ${keyTable(metricKeys)}
      left join article_metrics m on m.article_id = a.id and m.metric_key = k.metric_key
      where m.article_id is null
      order by page.scraped_at, a.id, k.metric_key`);
    const byId = new Map<string, RefreshCandidate & { scrapedAt: Date }>();
    for (const r of rowsOf<CandidateRow & { scraped_at: string | Date }>(result)) {
      let c = byId.get(r.id);
      if (!c) {
        c = {
          id: r.id,
          doi: r.doi,
          arxivId: r.arxiv_id,
          url: r.url,
          metadata: r.metadata ?? {},
          stale: {},
          scrapedAt: new Date(r.scraped_at),
        };
        byId.set(r.id, c);
      }
      c.stale[r.metric_key] = undefined;
    }
    return [...byId.values()];
  }

  async arrivalCursor(): Promise<ArrivalCursor | null> {
    const [row] = await this.db
      .select({ value: systemSettings.value })
      .from(systemSettings)
      .where(eq(systemSettings.key, ARRIVAL_CURSOR_KEY));
    try {
      const v = row ? (JSON.parse(row.value) as { at?: unknown; id?: unknown }) : null;
      const at = typeof v?.at === 'string' ? new Date(v.at) : null;
      return at && !Number.isNaN(at.getTime()) && typeof v?.id === 'string' ? { at, id: v.id } : null;
    } catch {
      return null;
    }
  }

  async setArrivalCursor(cursor: ArrivalCursor): Promise<void> {
    const value = JSON.stringify({ at: cursor.at.toISOString(), id: cursor.id });
    await this.db
      .insert(systemSettings)
      .values({ key: ARRIVAL_CURSOR_KEY, value })
      .onConflictDoUpdate({ target: systemSettings.key, set: { value } });
  }
}
