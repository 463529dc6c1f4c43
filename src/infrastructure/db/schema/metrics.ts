import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { articles } from './articles.js';

export interface ExtractionSource {
  /** e.g. semantic_scholar, openalex, crossref */
  provider: string;
  priority: number;
}

export const metricDefinitions = pgTable('metric_definitions', {
  id: id(),
  metricKey: text('metric_key').notNull().unique(),
  labelI18nKey: text('label_i18n_key').notNull(),
  iconName: text('icon_name'),
  formatHint: text('format_hint').notNull().default('integer'),
  unit: text('unit').notNull().default(''),
  enabled: boolean('enabled').notNull().default(true),
  /** internal: never exposed. Lower runs first; the catalog is ordered by it. */
  priority: integer('priority').notNull().default(100),
  extractionSources: jsonb('extraction_sources').$type<ExtractionSource[]>().notNull().default([]),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const articleMetrics = pgTable(
  'article_metrics',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    metricKey: text('metric_key').notNull(),
    value: doublePrecision('value'),
    /** which extraction source produced the value (internal) */
    source: text('source'),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.metricKey] }),
    index('article_metrics_key_value_idx').on(t.metricKey, t.value),
    // GET /articles sorted by a metric (articles area): the non-null values of one key in
    // (value, article_id) order, scanned forward for asc and backward for desc.
    index('article_metrics_sort_idx')
      .on(t.metricKey, t.value, t.articleId)
      .where(sql`${t.value} is not null`),
  ],
);
