import { conflict, invalid, notFound } from '../../domain/errors.js';
import {
  FETCH_INTERVAL,
  nextFetchAt,
  type Provider,
  type ProviderType,
  type Source,
  type SourceKind,
  type Topic,
} from '../../domain/catalog.js';
import { slugify } from '../../domain/text.js';
import type { ProviderRepository, SourceRepository, TopicRepository } from './catalog.ports.js';

export interface TopicOut {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  is_active: boolean;
}

export interface SourceOut {
  id: string;
  topic_id: string;
  name: string;
  kind: SourceKind;
  url: string;
  enabled: boolean;
  fetch_interval_minutes: number;
  last_fetched_at: string | null;
  /** when a scheduled run reads it next (null: at the next one) */
  next_fetch_at: string | null;
  last_error: string | null;
}

export interface ProviderOut {
  id: string;
  name: string;
  type: ProviderType;
  base_url: string;
  model: string;
  image_model: string | null;
  has_api_key: boolean;
  is_active: boolean;
}

const topicOut = (t: Topic): TopicOut => ({
  id: t.id,
  name: t.name,
  slug: t.slug,
  description: t.description,
  is_active: t.isActive,
});
const sourceOut = (s: Source): SourceOut => ({
  id: s.id,
  topic_id: s.topicId,
  name: s.name,
  kind: s.kind,
  url: s.url,
  enabled: s.enabled,
  fetch_interval_minutes: s.fetchIntervalMinutes,
  last_fetched_at: s.lastFetchedAt?.toISOString() ?? null,
  next_fetch_at: nextFetchAt(s)?.toISOString() ?? null,
  last_error: s.lastError,
});
const providerOut = (p: Provider): ProviderOut => ({
  id: p.id,
  name: p.name,
  type: p.type,
  base_url: p.baseUrl,
  model: p.model,
  image_model: p.imageModel,
  has_api_key: Boolean(p.apiKey),
  is_active: p.isActive,
});

const isUniqueViolation = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err.code === '23505' || err.cause?.code === '23505';
};
const isForeignKeyViolation = (e: unknown) => {
  const err = e as { code?: string; cause?: { code?: string } };
  return err.code === '23503' || err.cause?.code === '23503';
};

/** scheme, host and port: who receives what is sent to the URL */
const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

function checkHttpUrl(url: string, field: string) {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid(`${field} is not a valid URL`, 'invalid_url', [
      { path: `/${field}`, message: 'not a URL' },
    ]);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw invalid(`${field} must be http or https`, 'invalid_url', [
      { path: `/${field}`, message: 'http(s) only' },
    ]);
}

function checkInterval(minutes: number | undefined) {
  if (minutes === undefined) return;
  if (!Number.isInteger(minutes) || minutes < FETCH_INTERVAL.min || minutes > FETCH_INTERVAL.max)
    throw invalid(
      `fetch_interval_minutes must be a whole number from ${FETCH_INTERVAL.min} to ${FETCH_INTERVAL.max}`,
      'invalid_fetch_interval',
      [{ path: '/fetch_interval_minutes', message: `${FETCH_INTERVAL.min}..${FETCH_INTERVAL.max}` }],
    );
}

/** Topics, sources and providers: the admin's catalog of what is read and with which model. */
export class CatalogService {
  constructor(
    private readonly topics: TopicRepository,
    private readonly sources: SourceRepository,
    private readonly providers: ProviderRepository,
  ) {}

  async listTopics(opts: { includeInactive?: boolean } = {}) {
    return (await this.topics.list({ activeOnly: !opts.includeInactive })).map(topicOut);
  }

  async createTopic(input: { name: string; description?: string | null; is_active?: boolean }) {
    const name = input.name.trim();
    const slug = slugify(name);
    if (!slug) throw invalid('name must contain letters or digits', 'invalid_name');
    try {
      return topicOut(
        await this.topics.create({
          name,
          slug,
          description: input.description ?? null,
          isActive: input.is_active ?? true,
        }),
      );
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`a topic named "${name}" exists`, 'topic_exists');
      throw e;
    }
  }

  async updateTopic(id: string, patch: { name?: string; description?: string | null; is_active?: boolean }) {
    const next: Partial<Omit<Topic, 'id'>> = {};
    if (patch.name !== undefined) {
      next.name = patch.name.trim();
      next.slug = slugify(next.name);
      if (!next.slug) throw invalid('name must contain letters or digits', 'invalid_name');
    }
    if (patch.description !== undefined) next.description = patch.description;
    if (patch.is_active !== undefined) next.isActive = patch.is_active;
    try {
      const t = await this.topics.update(id, next);
      if (!t) throw notFound('topic');
      return topicOut(t);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`a topic named "${patch.name}" exists`, 'topic_exists');
      throw e;
    }
  }

  async deleteTopic(id: string) {
    if (!(await this.topics.delete(id))) throw notFound('topic');
  }

  async listSources(topicId?: string) {
    return (await this.sources.list({ topicId })).map(sourceOut);
  }

  /**
   * What can be told of a new source without reading its URL: the URL's form, the topic exists
   * (404 topic_not_found), no source of the topic has that URL (409 source_exists).
   */
  async checkNewSource(topicId: string, url: string) {
    checkHttpUrl(url, 'url');
    if (!(await this.topics.get(topicId))) throw notFound('topic', 'topic_not_found');
    if ((await this.sources.list({ topicId })).some((s) => s.url === url))
      throw conflict('this topic already has a source with that URL', 'source_exists');
  }

  async getSource(id: string) {
    const s = await this.sources.get(id);
    if (!s) throw notFound('source');
    return sourceOut(s);
  }

  /**
   * Adds a source as given, without reading its URL (OPML import, tests); the admin form and
   * POST /admin/sources go through SourcesService.create, which checks the URL is a feed first.
   */
  async createSource(input: {
    topic_id: string;
    name: string;
    kind: SourceKind;
    url: string;
    enabled?: boolean;
    fetch_interval_minutes?: number;
  }) {
    checkHttpUrl(input.url, 'url');
    checkInterval(input.fetch_interval_minutes);
    if (!(await this.topics.get(input.topic_id))) throw notFound('topic', 'topic_not_found');
    try {
      return sourceOut(
        await this.sources.create({
          topicId: input.topic_id,
          name: input.name.trim(),
          kind: input.kind,
          url: input.url,
          enabled: input.enabled ?? true,
          fetchIntervalMinutes: input.fetch_interval_minutes ?? FETCH_INTERVAL.default,
        }),
      );
    } catch (e) {
      if (isUniqueViolation(e))
        throw conflict('this topic already has a source with that URL', 'source_exists');
      if (isForeignKeyViolation(e)) throw notFound('topic', 'topic_not_found');
      throw e;
    }
  }

  async updateSource(
    id: string,
    patch: {
      topic_id?: string;
      name?: string;
      kind?: SourceKind;
      url?: string;
      enabled?: boolean;
      fetch_interval_minutes?: number;
    },
  ) {
    if (patch.url !== undefined) checkHttpUrl(patch.url, 'url');
    checkInterval(patch.fetch_interval_minutes);
    if (patch.topic_id !== undefined && !(await this.topics.get(patch.topic_id)))
      throw notFound('topic', 'topic_not_found');
    const next: Partial<Omit<Source, 'id'>> = {};
    if (patch.topic_id !== undefined) next.topicId = patch.topic_id;
    if (patch.name !== undefined) next.name = patch.name.trim();
    if (patch.kind !== undefined) next.kind = patch.kind;
    if (patch.url !== undefined) {
      next.url = patch.url;
      // a new URL must not reuse the old one's conditional-GET validators
      next.etag = null;
      next.lastModified = null;
    }
    if (patch.enabled !== undefined) next.enabled = patch.enabled;
    if (patch.fetch_interval_minutes !== undefined) next.fetchIntervalMinutes = patch.fetch_interval_minutes;
    try {
      const s = await this.sources.update(id, next);
      if (!s) throw notFound('source');
      return sourceOut(s);
    } catch (e) {
      if (isUniqueViolation(e))
        throw conflict('this topic already has a source with that URL', 'source_exists');
      throw e;
    }
  }

  async deleteSource(id: string) {
    if (!(await this.sources.delete(id))) throw notFound('source');
  }

  async listProviders() {
    return (await this.providers.list()).map(providerOut);
  }

  async createProvider(input: {
    name: string;
    type: ProviderType;
    base_url: string;
    model: string;
    image_model?: string | null;
    api_key?: string | null;
    is_active?: boolean;
  }) {
    checkHttpUrl(input.base_url, 'base_url');
    return providerOut(
      await this.providers.create({
        name: input.name.trim(),
        type: input.type,
        baseUrl: input.base_url.replace(/\/+$/, ''),
        model: input.model,
        imageModel: input.image_model ?? null,
        apiKey: input.api_key ?? null,
        isActive: input.is_active ?? true,
      }),
    );
  }

  async updateProvider(
    id: string,
    patch: {
      name?: string;
      type?: ProviderType;
      base_url?: string;
      model?: string;
      image_model?: string | null;
      api_key?: string | null;
      is_active?: boolean;
    },
  ) {
    if (patch.base_url !== undefined) checkHttpUrl(patch.base_url, 'base_url');
    const next: Partial<Omit<Provider, 'id'>> = {};
    // a stored key belongs to the address it was entered for: moved to another origin without a new
    // key, the key is dropped rather than sent to a server it was never meant for
    if (patch.base_url !== undefined && patch.api_key === undefined) {
      const current = await this.providers.get(id);
      if (!current) throw notFound('provider');
      if (current.apiKey && originOf(current.baseUrl) !== originOf(patch.base_url)) next.apiKey = null;
    }
    if (patch.name !== undefined) next.name = patch.name.trim();
    if (patch.type !== undefined) next.type = patch.type;
    if (patch.base_url !== undefined) next.baseUrl = patch.base_url.replace(/\/+$/, '');
    if (patch.model !== undefined) next.model = patch.model;
    if (patch.image_model !== undefined) next.imageModel = patch.image_model;
    if (patch.api_key !== undefined) next.apiKey = patch.api_key;
    if (patch.is_active !== undefined) next.isActive = patch.is_active;
    const p = await this.providers.update(id, next);
    if (!p) throw notFound('provider');
    return providerOut(p);
  }

  async deleteProvider(id: string) {
    if (!(await this.providers.delete(id))) throw notFound('provider');
  }
}
