import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, id, realArray, updatedAt } from './common.js';
import { topics } from './catalog.js';
import { articles } from './articles.js';
import { users } from './users.js';

export const tagGroups = pgTable(
  'tag_groups',
  {
    id: id(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    displayName: text('display_name').notNull(),
    description: text('description'),
    colorHex: text('color_hex'),
    sortOrder: integer('sort_order').notNull().default(0),
    /** dense embedding of the display name; its width is recorded in system_settings */
    embedding: realArray('embedding'),
    /** set instead of `embedding` when the provider is sparse */
    sparseEmbedding: jsonb('sparse_embedding').$type<Record<string, number>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('tag_groups_topic_name_uq').on(t.topicId, t.name)],
);

export const tags = pgTable(
  'tags',
  {
    id: id(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tagGroupId: uuid('tag_group_id').references(() => tagGroups.id, { onDelete: 'set null' }),
    embedding: realArray('embedding'),
    sparseEmbedding: jsonb('sparse_embedding').$type<Record<string, number>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // one name per group (homonyms may live in different groups; a group merge de-duplicates them);
    // NULLS NOT DISTINCT makes the Ungrouped bucket one group too
    unique('tags_topic_group_name_uq').on(t.topicId, t.tagGroupId, t.name).nullsNotDistinct(),
    index('tags_topic_name_idx').on(t.topicId, t.name),
    index('tags_group_idx').on(t.tagGroupId),
    // the admin tags table: newest/oldest first per topic, and substring search (CJK included)
    index('tags_topic_created_idx').on(t.topicId, t.createdAt, t.id),
    index('tags_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const articleTags = pgTable(
  'article_tags',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.tagId] }), index('article_tags_tag_idx').on(t.tagId)],
);

export const tagNormalizationSuggestions = pgTable(
  'tag_normalization_suggestions',
  {
    id: id(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    newTagId: uuid('new_tag_id').references(() => tags.id, { onDelete: 'set null' }),
    existingTagId: uuid('existing_tag_id').references(() => tags.id, { onDelete: 'set null' }),
    /** names are kept so that a rejected pair is remembered even after a tag is renamed or deleted */
    newTagName: text('new_tag_name').notNull(),
    existingTagName: text('existing_tag_name').notNull(),
    similarityScore: real('similarity_score').notNull(),
    articleId: uuid('article_id').references(() => articles.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] })
      .notNull()
      .default('pending'),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('tag_suggestions_pair_uq').on(t.topicId, t.newTagName, t.existingTagName),
    index('tag_suggestions_status_idx').on(t.status),
  ],
);

/**
 * Tags an admin merged into another (POST /admin/tags/merge). A repeated merge of the same source
 * into the same target is recognised (idempotent), and the tagger maps the merged name to the
 * target, so the next scrape does not bring the merged-away tag back.
 */
export const tagMerges = pgTable(
  'tag_merges',
  {
    /** the deleted tag's id: no foreign key, the row outlives it */
    sourceTagId: uuid('source_tag_id').primaryKey(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    sourceName: text('source_name').notNull(),
    targetTagId: uuid('target_tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    mergedBy: uuid('merged_by').references(() => users.id, { onDelete: 'set null' }),
    mergedAt: timestamp('merged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('tag_merges_topic_name_idx').on(t.topicId, t.sourceName),
    index('tag_merges_target_idx').on(t.targetTagId),
  ],
);
