import { asc, eq } from 'drizzle-orm';
import type { MetricDefinitionRepository } from '../../../application/metrics/metrics.ports.js';
import type { MetricDefinition } from '../../../domain/metrics.js';
import type { Db } from '../client.js';
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
}
