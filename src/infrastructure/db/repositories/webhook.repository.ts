import { and, asc, desc, eq, gte, inArray, lt, notExists, notInArray, sql } from 'drizzle-orm';
import type { WebhookDeliveryStatus, WebhookEvent } from '../../../domain/webhooks.js';
import type {
  PublishedArticle,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventSource,
  WebhookRepository,
} from '../../../application/webhooks/webhooks.ports.js';
import type { Db } from '../client.js';
import {
  articleTags,
  articles,
  scraperRuns,
  tags,
  topics,
  webhookDeliveries,
  webhookEndpoints,
} from '../schema/index.js';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  secret: r.secret,
  events: r.events as WebhookEvent[],
  enabled: r.enabled,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpointId,
  event: r.event as WebhookEvent,
  eventId: r.eventId,
  body: r.body,
  status: r.status,
  attempts: r.attempts,
  attemptLog: r.attemptLog,
  responseExcerpt: r.responseExcerpt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export class DrizzleWebhookRepository implements WebhookRepository {
  constructor(private readonly db: Db) {}

  async list() {
    const rows = await this.db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.createdAt));
    return rows.map(toEndpoint);
  }

  async get(id: string) {
    const [row] = await this.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row ? toEndpoint(row) : null;
  }

  async subscribed(event: WebhookEvent) {
    const rows = await this.db
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.enabled, true),
          sql`${webhookEndpoints.events} @> ${JSON.stringify([event])}::jsonb`,
        ),
      );
    return rows.map(toEndpoint);
  }

  async create(e: { url: string; secret: string; events: WebhookEvent[]; enabled: boolean }) {
    const [row] = await this.db.insert(webhookEndpoints).values(e).returning();
    return toEndpoint(row!);
  }

  async update(
    id: string,
    patch: Partial<{ url: string; secret: string; events: WebhookEvent[]; enabled: boolean }>,
  ) {
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, id))
      .returning();
    return row ? toEndpoint(row) : null;
  }

  async delete(id: string) {
    const rows = await this.db
      .delete(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  }

  async addDeliveries(
    rows: { endpointId: string; event: WebhookEvent; eventId: string; dedupeKey: string; body: string }[],
  ) {
    if (!rows.length) return [];
    const added = await this.db
      .insert(webhookDeliveries)
      .values(rows)
      .onConflictDoNothing({ target: [webhookDeliveries.endpointId, webhookDeliveries.dedupeKey] })
      .returning({ id: webhookDeliveries.id });
    return added.map((r) => r.id);
  }

  async delivery(id: string) {
    const [row] = await this.db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, id));
    return row ? { delivery: toDelivery(row.delivery), endpoint: toEndpoint(row.endpoint) } : null;
  }

  async deliveries(endpointId: string, limit: number) {
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit);
    return rows.map(toDelivery);
  }

  async recordAttempt(id: string, a: WebhookAttempt, status: WebhookDeliveryStatus, excerpt: string | null) {
    await this.db
      .update(webhookDeliveries)
      .set({
        status,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        attemptLog: sql`${webhookDeliveries.attemptLog} || ${JSON.stringify([a])}::jsonb`,
        responseExcerpt: excerpt,
        updatedAt: new Date(),
      })
      .where(eq(webhookDeliveries.id, id));
  }

  async setStatus(id: string, status: WebhookDeliveryStatus) {
    await this.db
      .update(webhookDeliveries)
      .set({ status, updatedAt: new Date() })
      .where(eq(webhookDeliveries.id, id));
  }

  async prune(endpointId: string, keep: number, before: Date) {
    const newest = this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(keep);
    const gone = await this.db
      .delete(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, endpointId),
          inArray(webhookDeliveries.status, ['delivered', 'failed']),
          lt(webhookDeliveries.createdAt, before),
          notInArray(webhookDeliveries.id, newest),
        ),
      )
      .returning({ id: webhookDeliveries.id });
    return gone.length;
  }
}

/** What the events' data is read from. */
export class DrizzleWebhookEventSource implements WebhookEventSource {
  constructor(private readonly db: Db) {}

  async article(id: string): Promise<PublishedArticle | null> {
    const [row] = await this.db
      .select({
        id: articles.id,
        topicId: articles.topicId,
        title: articles.title,
        url: articles.url,
        summary: articles.summary,
        publishedAt: articles.publishedAt,
      })
      .from(articles)
      .where(eq(articles.id, id));
    if (!row) return null;
    const names = await this.db
      .select({ name: tags.name })
      .from(articleTags)
      .innerJoin(tags, eq(tags.id, articleTags.tagId))
      .where(eq(articleTags.articleId, id))
      .orderBy(asc(tags.name));
    return {
      article_id: row.id,
      topic_id: row.topicId,
      title: row.title,
      url: row.url,
      summary: row.summary,
      tags: names.map((n) => n.name),
      published_at: row.publishedAt?.toISOString() ?? null,
    };
  }

  async publishedWithoutDelivery(endpointId: string, since: Date, limit: number) {
    const rows = await this.db
      .select({ id: articles.id })
      .from(articles)
      .where(
        and(
          gte(articles.scrapedAt, since),
          eq(articles.processingStatus, 'completed'),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(webhookDeliveries)
              .where(
                and(
                  eq(webhookDeliveries.endpointId, endpointId),
                  eq(webhookDeliveries.dedupeKey, sql`'article:' || ${articles.id}::text`),
                ),
              ),
          ),
        ),
      )
      .orderBy(asc(articles.scrapedAt), asc(articles.id))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  async runKind(id: string) {
    const [row] = await this.db
      .select({ kind: scraperRuns.kind })
      .from(scraperRuns)
      .where(eq(scraperRuns.id, id));
    return row?.kind ?? null;
  }

  async topicName(id: string) {
    const [row] = await this.db.select({ name: topics.name }).from(topics).where(eq(topics.id, id));
    return row?.name ?? null;
  }
}
