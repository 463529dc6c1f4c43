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
