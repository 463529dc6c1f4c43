import { and, asc, desc, eq } from 'drizzle-orm';
import type {
  ProviderInput,
  ProviderRepository,
  SourceInput,
  SourceRepository,
  TopicInput,
  TopicRepository,
} from '../../../application/catalog/catalog.ports.js';
import type { Provider, Source, Topic } from '../../../domain/catalog.js';
import type { Db } from '../client.js';
import { storableText } from '../safe-text.js';
import { providers, sources, topics } from '../schema/index.js';

const topicOf = (r: typeof topics.$inferSelect): Topic => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  description: r.description,
  isActive: r.isActive,
});
const sourceOf = (r: typeof sources.$inferSelect): Source => ({
  id: r.id,
  topicId: r.topicId,
  name: r.name,
  kind: r.kind,
  url: r.url,
  enabled: r.enabled,
  fetchIntervalMinutes: r.fetchIntervalMinutes,
  etag: r.etag,
  lastModified: r.lastModified,
  lastFetchedAt: r.lastFetchedAt,
  lastError: r.lastError,
});
const providerOf = (r: typeof providers.$inferSelect): Provider => ({
  id: r.id,
  name: r.name,
  type: r.type,
  baseUrl: r.baseUrl,
  model: r.model,
  imageModel: r.imageModel,
  apiKey: r.apiKey,
  isActive: r.isActive,
});

export class DrizzleTopicRepository implements TopicRepository {
  constructor(private readonly db: Db) {}
  async list(opts: { activeOnly?: boolean } = {}) {
    const rows = await this.db
      .select()
      .from(topics)
      .where(opts.activeOnly ? eq(topics.isActive, true) : undefined)
      .orderBy(asc(topics.name));
    return rows.map(topicOf);
  }
  async get(id: string) {
    const [r] = await this.db.select().from(topics).where(eq(topics.id, id));
    return r ? topicOf(r) : null;
  }
  async create(input: TopicInput) {
    const [r] = await this.db.insert(topics).values(input).returning();
    return topicOf(r!);
  }
  async update(id: string, patch: Partial<TopicInput>) {
    const [r] = await this.db
      .update(topics)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(topics.id, id))
      .returning();
    return r ? topicOf(r) : null;
  }
  async delete(id: string) {
    return (await this.db.delete(topics).where(eq(topics.id, id)).returning({ id: topics.id })).length > 0;
  }
}

export class DrizzleSourceRepository implements SourceRepository {
  constructor(private readonly db: Db) {}
  async list(filter: { topicId?: string; enabledOnly?: boolean } = {}) {
    const rows = await this.db
      .select()
      .from(sources)
      .where(
        and(
          filter.topicId ? eq(sources.topicId, filter.topicId) : undefined,
          filter.enabledOnly ? eq(sources.enabled, true) : undefined,
        ),
      )
      .orderBy(asc(sources.name), asc(sources.id));
    return rows.map(sourceOf);
  }
  async get(id: string) {
    const [r] = await this.db.select().from(sources).where(eq(sources.id, id));
    return r ? sourceOf(r) : null;
  }
  async create(input: SourceInput) {
    const [r] = await this.db.insert(sources).values(input).returning();
    return sourceOf(r!);
  }
  async update(id: string, patch: Partial<Omit<Source, 'id'>>) {
    const [r] = await this.db
      .update(sources)
      .set({
        ...patch,
        // a fetch error quotes the feed server or the parser: bounded like the fetch history's
        ...(patch.lastError ? { lastError: storableText(patch.lastError, 1000) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(sources.id, id))
      .returning();
    return r ? sourceOf(r) : null;
  }
  async delete(id: string) {
    return (await this.db.delete(sources).where(eq(sources.id, id)).returning({ id: sources.id })).length > 0;
  }
}

export class DrizzleProviderRepository implements ProviderRepository {
  constructor(private readonly db: Db) {}
  async list() {
    return (await this.db.select().from(providers).orderBy(asc(providers.name), asc(providers.id))).map(
      providerOf,
    );
  }
  async get(id: string) {
    const [r] = await this.db.select().from(providers).where(eq(providers.id, id));
    return r ? providerOf(r) : null;
  }
  async findActive(type: Provider['type']) {
    const [r] = await this.db
      .select()
      .from(providers)
      .where(and(eq(providers.type, type), eq(providers.isActive, true)))
      .orderBy(desc(providers.updatedAt))
      .limit(1);
    return r ? providerOf(r) : null;
  }
  async create(input: ProviderInput) {
    const [r] = await this.db.insert(providers).values(input).returning();
    return providerOf(r!);
  }
  async update(id: string, patch: Partial<ProviderInput>) {
    const [r] = await this.db
      .update(providers)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(providers.id, id))
      .returning();
    return r ? providerOf(r) : null;
  }
  async delete(id: string) {
    return (
      (await this.db.delete(providers).where(eq(providers.id, id)).returning({ id: providers.id })).length > 0
    );
  }
}
