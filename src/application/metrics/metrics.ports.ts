import type { MetricDefinition } from '../../domain/metrics.js';

export interface MetricDefinitionRepository {
  /** every catalog entry, in extraction-priority order */
  list(opts?: { enabledOnly?: boolean }): Promise<MetricDefinition[]>;
  update(
    id: string,
    patch: { enabled?: boolean; iconName?: string | null },
  ): Promise<MetricDefinition | null>;
}
