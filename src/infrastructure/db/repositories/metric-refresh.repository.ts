import { asc, eq, sql } from 'drizzle-orm';
import type {
  MetricRefreshStore,
  MetricValueWrite,
  RefreshCandidate,
} from '../../../application/metrics/metrics.ports.js';
import { rowsOf, type Db } from '../client.js';
import { articleMetrics, metricDefinitions } from '../schema/index.js';

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
    return rows.map((r) => ({
      metricKey: r.metricKey,
      providers: [...(r.sources ?? [])].sort((a, b) => a.priority - b.priority).map((s) => s.provider),
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
}
