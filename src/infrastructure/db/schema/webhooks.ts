import { boolean, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';

/**
 * Admin webhook endpoints. The secret signs every delivery (HMAC-SHA256), so it is kept as it is:
 * the API never answers it after the create that generated or received it.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: id(),
  url: text('url').notNull(),
  secret: text('secret').notNull(),
  events: jsonb('events').$type<string[]>().notNull().default([]),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** One attempt of a delivery, as the admin sees it. */
export interface StoredWebhookAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/**
 * One event to one endpoint: the exact body sent (a resend sends the same bytes), its state and
 * every attempt. `dedupe_key` (the event's subject, e.g. the article) keeps an event that is
 * emitted twice from being delivered twice.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    eventId: uuid('event_id').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'retrying', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    attemptLog: jsonb('attempt_log').$type<StoredWebhookAttempt[]>().notNull().default([]),
    responseExcerpt: text('response_excerpt'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('webhook_deliveries_endpoint_dedupe_uq').on(t.endpointId, t.dedupeKey),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
  ],
);
