import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uuid, unique } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';

export const topics = pgTable('topics', {
  id: id(),
  name: text('name').notNull().unique(),
  slug: text('slug').notNull().unique(),
  description: text('description'),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sources = pgTable(
  'sources',
  {
    id: id(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['rss', 'arxiv'] }).notNull(),
    url: text('url').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** minutes between scheduled reads (FETCH_INTERVAL in src/domain/catalog.ts) */
    fetchIntervalMinutes: integer('fetch_interval_minutes').notNull().default(60),
    /** conditional GET state, kept between runs */
    etag: text('etag'),
    lastModified: text('last_modified'),
    lastFetchedAt: timestamp('last_fetched_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('sources_topic_url_uq').on(t.topicId, t.url),
    check('sources_fetch_interval_ck', sql`${t.fetchIntervalMinutes} between 5 and 10080`),
  ],
);

export const providers = pgTable('providers', {
  id: id(),
  name: text('name').notNull(),
  type: text('type', { enum: ['text', 'multimodal'] }).notNull(),
  baseUrl: text('base_url').notNull(),
  model: text('model').notNull(),
  imageModel: text('image_model'),
  /** write-only through the API: responses carry has_api_key */
  apiKey: text('api_key'),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Small key/value table for facts fixed at first start (e.g. the embedding dimension). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
