import { asc, eq, sql } from 'drizzle-orm';
import type { MetricDefinitionRepository } from '../../../application/metrics/metrics.ports.js';
import type { MetricDefinition } from '../../../domain/metrics.js';
import { rowsOf, type Db } from '../client.js';
import { mayHaveIdentifier } from './metric-refresh.repository.js';
import { metricDefinitions } from '../schema/index.js';

const of = (r: typeof metricDefinitions.$inferSelect): MetricDefinition => ({
  id: r.id,
  metricKey: r.metricKey,
  labelI18nKey: r.labelI18nKey,
  iconName: r.iconName,
  formatHint: r.formatHint,
  unit: r.unit,
  enabled: r.enabled,
});

export class DrizzleMetricDefinitionRepository implements MetricDefinitionRepository {
  constructor(private readonly db: Db) {}

  async list(opts: { enabledOnly?: boolean } = {}) {
    const rows = await this.db
      .select()
      .from(metricDefinitions)
      .where(opts.enabledOnly ? eq(metricDefinitions.enabled, true) : undefined)
      .orderBy(asc(metricDefinitions.priority), asc(metricDefinitions.metricKey));
    return rows.map(of);
  }

  async update(id: string, patch: { enabled?: boolean; iconName?: string | null }) {
    if (!Object.keys(patch).length) {
      const [row] = await this.db.select().from(metricDefinitions).where(eq(metricDefinitions.id, id));
      return row ? of(row) : null;
    }
    const [row] = await this.db
      .update(metricDefinitions)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(metricDefinitions.id, id))
      .returning();
    return row ? of(row) : null;
  }

  async coverage(metricKey: string, topicId: string | null) {
    const inTopic =
      topicId === null
        ? sql`true`
        : sql`exists (select 1 from article_topics t where t.article_id = a.id and t.topic_id = ${topicId})`;
    const [row] = rowsOf<{ n: number | string; v: number | string; p: number | string }>(
      await this.db.execute(sql`
        select count(*)::int as n,
               count(m.value)::int as v,
               (count(*) filter (where m.article_id is null and ${mayHaveIdentifier}))::int as p
        from articles a
        left join article_metrics m on m.article_id = a.id and m.metric_key = ${metricKey}
        where ${inTopic}`),
    );
    return { articles: Number(row?.n ?? 0), withValue: Number(row?.v ?? 0), pending: Number(row?.p ?? 0) };
  }
}
