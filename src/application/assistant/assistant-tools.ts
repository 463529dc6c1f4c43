import { forbidden, invalid, notFound } from '../../domain/errors.js';
import type { ArticleSummary } from '../../domain/articles.js';
import type { ReportLocale } from '../../domain/reports.js';
import type { Principal } from '../../domain/users.js';
import type { ArticlesService } from '../articles/articles.service.js';
import type { FavoritesService } from '../articles/favorites.service.js';
import type { ReadStateService } from '../articles/read-state.service.js';
import type { SimilarArticlesService } from '../articles/similar.service.js';
import type { CatalogService, TopicOut } from '../catalog/catalog.service.js';
import type { ReportsService } from '../reports/reports.service.js';

/** an article's text handed to an assistant is cut here (its context is not ours to fill) */
export const MAX_CONTENT_CHARS = 20_000;
const MAX_SUMMARY_CHARS = 1_000;
export const MAX_SEARCH_LIMIT = 50;

export interface ArticleRef {
  id: string;
  title: string;
  /** the article where it was published: what an assistant cites */
  url: string;
  /** the article in this service's reader */
  reader_url: string;
  source: string;
  topic_id: string;
  published_at: string | null;
  summary: string | null;
  tags: string[];
  metrics: Record<string, number>;
  is_read: boolean;
  is_favorited: boolean;
}

export interface SearchInput {
  query?: string;
  /** a topic's id, slug or name */
  topic?: string;
  /** an ISO 8601 date or date-time */
  since?: string;
  sort?: string;
  limit?: number;
}

/**
 * What an assistant may do through the MCP server, as use cases over the existing services: one
 * function per tool, each given the caller (a personal access token's principal). Results are plain
 * JSON and every article in them carries its URL, so an answer can cite it. Write tools need a
 * `write` token (403 `token_read_only` otherwise). Tracing and rate limits are added around these
 * from outside (composition and the MCP route).
 */
export interface AssistantTools {
  search_articles(caller: Principal, input: SearchInput): Promise<{ total: number; items: ArticleRef[] }>;
  get_article(caller: Principal, input: { id: string }): Promise<ArticleDetailRef>;
  list_topics(caller: Principal, input: Record<string, never>): Promise<{ items: TopicRef[] }>;
  get_weekly_report(
    caller: Principal,
    input: { topic: string; week?: string; language?: ReportLocale },
  ): Promise<ReportRef>;
  similar_articles(
    caller: Principal,
    input: { id: string },
  ): Promise<{ article_id: string; items: ArticleRef[] }>;
  mark_read(caller: Principal, input: { id: string; read?: boolean }): Promise<ArticleRef>;
  set_favorite(caller: Principal, input: { id: string; favorite?: boolean }): Promise<ArticleRef>;
}
export type AssistantToolName = keyof AssistantTools;

export interface ArticleDetailRef extends ArticleRef {
  author: string | null;
  doi: string | null;
  arxiv_id: string | null;
  /** plain text, at most MAX_CONTENT_CHARS */
  content: string | null;
  content_truncated: boolean;
  translations: Record<string, { title: string; summary: string | null }>;
}

export interface TopicRef {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  /** the topic's articles in this service's reader */
  articles_url: string;
  /** the topic's ranked articles as an Atom feed */
  feed_url: string;
}

export interface ReportRef {
  id: string;
  topic: { id: string; name: string };
  week_start_date: string;
  title: string;
  /** Markdown; `[N]` cites sources[N-1] */
  summary_text: string;
  method: 'model' | 'extractive';
  article_count: number;
  report_url: string;
  sources: { n: number; title: string; url: string; reader_url: string }[];
}

export interface AssistantDeps {
  articles: Pick<ArticlesService, 'list' | 'get' | 'summaries'>;
  catalog: Pick<CatalogService, 'listTopics'>;
  reports: Pick<ReportsService, 'latest' | 'byWeek'>;
  similar: Pick<SimilarArticlesService, 'similar'>;
  readState: Pick<ReadStateService, 'markRead' | 'markUnread'>;
  favorites: Pick<FavoritesService, 'add' | 'remove'>;
  /** the site readers open (PUBLIC_BASE_URL): reader, topic and report links point there */
  publicBaseUrl: string;
}

const cut = (s: string | null, max: number) => (s && s.length > max ? `${s.slice(0, max)}…` : s);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createAssistantTools(d: AssistantDeps): AssistantTools {
  const base = d.publicBaseUrl;
  const ref = (a: ArticleSummary): ArticleRef => ({
    id: a.id,
    title: a.title,
    url: a.url,
    reader_url: `${base}/articles/${a.id}`,
    source: a.source,
    topic_id: a.topicId,
    published_at: a.publishedAt?.toISOString() ?? null,
    summary: cut(a.summary, MAX_SUMMARY_CHARS),
    tags: a.tags,
    metrics: a.metrics,
    is_read: a.isRead,
    is_favorited: a.isFavorited,
  });
  const topicRef = (t: TopicOut): TopicRef => ({
    id: t.id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    articles_url: `${base}/articles?${new URLSearchParams({ topic: t.id })}`,
    feed_url: `${base}/feeds/topics/${t.id}.atom`,
  });

  /** a topic by id, slug or name (case-insensitive), among the active ones */
  const topicOf = async (given: string): Promise<TopicOut> => {
    const wanted = given.trim().toLowerCase();
    const topics = await d.catalog.listTopics();
    const found = topics.find((t) => t.id === wanted || t.slug === wanted || t.name.toLowerCase() === wanted);
    if (!found)
      throw invalid(
        `no topic "${given}"; list_topics names the topics (${topics.map((t) => t.slug).join(', ') || 'none yet'})`,
        'topic_not_found',
      );
    return found;
  };
  const one = async (caller: Principal, id: string): Promise<ArticleRef> => {
    const [a] = await d.articles.summaries([id], caller.userId);
    if (!a) throw notFound('article');
    return ref(a);
  };
  const mayWrite = (caller: Principal) => {
    if (caller.token?.scope !== 'write')
      throw forbidden(
        'this access token may only read; create a write token in Settings to mark articles',
        'token_read_only',
      );
  };
  const instant = (since: string): Date => {
    const at = /^\d{4}-\d{2}-\d{2}$/.test(since) ? new Date(`${since}T00:00:00Z`) : new Date(since);
    if (Number.isNaN(at.getTime()))
      throw invalid('since must be an ISO 8601 date or date-time', 'validation_error', [
        { path: '/since', message: 'not a date' },
      ]);
    return at;
  };

  return {
    async search_articles(caller, input) {
      const topic = input.topic ? await topicOf(input.topic) : undefined;
      const page = await d.articles.list(
        {
          q: input.query,
          topicId: topic?.id,
          since: input.since ? instant(input.since) : undefined,
          sort: input.sort,
          limit: Math.min(input.limit ?? 10, MAX_SEARCH_LIMIT),
        },
        caller.userId,
      );
      return { total: page.total, items: page.items.map(ref) };
    },

    async get_article(caller, { id }) {
      if (!UUID.test(id)) throw notFound('article');
      // looking an article up for the user is not the user reading it
      const a = await d.articles.get(id, caller.userId, { markRead: false });
      return {
        ...ref(a),
        summary: a.summary,
        author: a.author,
        doi: a.doi,
        arxiv_id: a.arxivId,
        content: cut(a.content, MAX_CONTENT_CHARS),
        content_truncated: (a.content?.length ?? 0) > MAX_CONTENT_CHARS,
        translations: a.translations,
      };
    },

    async list_topics() {
      return { items: (await d.catalog.listTopics()).map(topicRef) };
    },

    async get_weekly_report(caller, input) {
      const topic = await topicOf(input.topic);
      const report = input.week
        ? await d.reports.byWeek({ topicId: topic.id, weekStart: input.week, locale: input.language })
        : await d.reports.latest({ topicId: topic.id, locale: input.language });
      if (!report) throw notFound('weekly report', 'report_not_found');
      return {
        id: report.id,
        topic: { id: topic.id, name: topic.name },
        week_start_date: report.week_start_date,
        title: report.title,
        summary_text: report.summary_text,
        method: report.method,
        article_count: report.article_count,
        report_url: `${base}/reports?${new URLSearchParams({ topic: topic.id, week: report.week_start_date })}`,
        sources: report.sources.map((s, i) => ({
          n: i + 1,
          title: s.title,
          url: s.url,
          reader_url: `${base}/articles/${s.id}`,
        })),
      };
    },

    async similar_articles(caller, { id }) {
      if (!UUID.test(id)) throw notFound('article');
      const { items } = await d.similar.similar(id, caller.userId);
      return { article_id: id, items: items.map(ref) };
    },

    async mark_read(caller, { id, read = true }) {
      mayWrite(caller);
      if (!UUID.test(id)) throw notFound('article');
      if (read) await d.readState.markRead(caller.userId, id);
      else await d.readState.markUnread(caller.userId, id);
      return one(caller, id);
    },

    async set_favorite(caller, { id, favorite = true }) {
      mayWrite(caller);
      if (!UUID.test(id)) throw notFound('article');
      await one(caller, id);
      if (favorite) await d.favorites.add(caller.userId, id);
      else await d.favorites.remove(caller.userId, id);
      return one(caller, id);
    },
  };
}
