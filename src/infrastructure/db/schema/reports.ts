import { date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { topics } from './catalog.js';
import { users } from './users.js';

import type { Grounding } from '../../../domain/grounding.js';

export interface ReportTranslation {
  title: string;
  summary_text: string;
}

export const weeklyReports = pgTable(
  'weekly_reports',
  {
    id: id(),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    weekStartDate: date('week_start_date', { mode: 'string' }).notNull(),
    title: text('title').notNull(),
    summaryText: text('summary_text').notNull(),
    coverImageUrl: text('cover_image_url'),
    articleCount: integer('article_count').notNull().default(0),
    status: text('status').notNull().default('pending'),
    /** model: written by a language model; extractive: quoted from the articles, without one */
    method: text('method', { enum: ['model', 'extractive'] })
      .notNull()
      .default('model'),
    /** article ids in citation order ([1] is the first); older reports may hold non-UUID values */
    articleIds: jsonb('article_ids').$type<string[]>().notNull().default([]),
    translations: jsonb('translations').$type<Record<string, ReportTranslation>>().notNull().default({}),
    /** how well the cited sentences are supported by their sources; null before grounding existed */
    grounding: jsonb('grounding').$type<Grounding>(),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('weekly_reports_topic_week_uq').on(t.topicId, t.weekStartDate),
    index('weekly_reports_topic_created_idx').on(t.topicId, t.createdAt),
  ],
);

export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: id(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => weeklyReports.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'messenger'] }).notNull(),
    status: text('status', { enum: ['sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(1),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('notification_deliveries_uq').on(t.reportId, t.userId, t.channel)],
);
