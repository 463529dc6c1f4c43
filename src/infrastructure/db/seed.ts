import { metricDefinitions } from './schema/index.js';
import type { Db } from './client.js';

/**
 * The metric catalog is seeded with citation_count, extracted from the citation sources in
 * priority order (docs/decisions/0061-metric-catalog-and-refresh.md), and coverage_count, written
 * by the work linker (docs/decisions/0125-works.md: no extraction source, so the citation refresh
 * leaves it alone). Idempotent: an existing row keeps its admin-chosen state.
 */
export async function seedDatabase(db: Db): Promise<void> {
  await db
    .insert(metricDefinitions)
    .values({
      metricKey: 'citation_count',
      labelI18nKey: 'metrics.citation_count',
      iconName: 'quote',
      formatHint: 'integer',
      unit: 'citations',
      enabled: true,
      priority: 10,
      extractionSources: [
        { provider: 'semantic_scholar', priority: 1 },
        { provider: 'openalex', priority: 2 },
        { provider: 'crossref', priority: 3 },
      ],
    })
    .onConflictDoNothing({ target: metricDefinitions.metricKey });
  await db
    .insert(metricDefinitions)
    .values({
      metricKey: 'coverage_count',
      labelI18nKey: 'metrics.coverage_count',
      iconName: 'share-2',
      formatHint: 'integer',
      unit: 'articles',
      enabled: true,
      priority: 20,
      extractionSources: [],
    })
    .onConflictDoNothing({ target: metricDefinitions.metricKey });
}
