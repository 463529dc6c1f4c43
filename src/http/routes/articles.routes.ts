import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ArticleSummary } from '../../domain/articles.js';
import type { ReaderArticle } from '../../application/articles/articles.service.js';
import { DateTime, IdParams, NoContent, Obj, Pagination, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import { clientKey } from '../plugins/client-ip.js';
import type { HttpOptions, Services } from '../services.js';

/**
 * `type: [string, null]` rather than Nullable's anyOf: the response serializer writes it directly,
 * where an anyOf makes it validate every value against each branch (measurable on a 20-row page).
 */
const NullableString = (opts: { format?: string; description?: string } = {}) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...opts });

const ArticleFields = {
  id: Uuid(),
  topic_id: Uuid(),
  title: Type.String(),
  url: Type.String(),
  source: Type.String(),
  summary: NullableString(),
  published_at: NullableString({ format: 'date-time' }),
  scraped_at: DateTime(),
  language: NullableString(),
  doi: NullableString(),
  arxiv_id: NullableString(),
  tags: Type.Array(Type.String()),
  metrics: Type.Record(Type.String(), Type.Number(), {
    description: 'enabled catalog metric_key → value; only metrics with a value',
  }),
  view_count: Type.Integer({ description: '0 if never viewed' }),
  is_favorited: Type.Boolean({ description: 'false for guests' }),
  is_read: Type.Boolean({ description: 'read by the caller; false for guests' }),
  work: Type.Object(
    {
      id: Uuid({ description: 'the work (GET /works/{id}); an article alone in its work has its own id' }),
      versions: Type.Integer({ description: 'articles of the work, this one included' }),
      coverage: Type.Integer({ description: 'articles of other works that link to or name this work' }),
    },
    { title: 'WorkRef' },
  ),
};
const SnippetSegment = Type.Object({ text: Type.String(), highlight: Type.Boolean() });
export const ArticleOut = Type.Object(
  {
    ...ArticleFields,
    snippet: Type.Unsafe<{ text: string; highlight: boolean }[] | null>({
      type: ['array', 'null'],
      items: SnippetSegment,
      description:
        'with q only: a plain-text excerpt of the best-matching field, highlighted where it matched',
    }),
  },
  { title: 'ArticleOut' },
);
const MetricDetailOut = Type.Object({
  key: Type.String(),
  value: Type.Number(),
  source: NullableString({ description: 'where the value was fetched from' }),
  fetched_at: NullableString({ format: 'date-time' }),
});
const ArticleDetailOut = Type.Object(
  {
    ...ArticleFields,
    content: NullableString(),
    content_html: NullableString({
      description: "the feed's content as sanitised HTML (no scripts, handlers, frames or forms)",
    }),
    metric_details: Type.Array(MetricDetailOut, {
      description: 'each enabled catalog metric with a value, with its source and fetch time',
    }),
    author: NullableString(),
    translations: Type.Record(
      Type.String(),
      Type.Object({ title: Type.String(), summary: NullableString() }),
      { description: 'keyed by locale, e.g. zh-TW' },
    ),
  },
  { title: 'ArticleDetailOut' },
);
const ArticlePageOut = Type.Object({
  items: Type.Array(ArticleOut),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
const ListQuery = Obj({
  sort: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'scraped_at (default), published_at, source, title, view_count, an enabled metric_key, or relevance (the default with q; q required)',
    }),
  ),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
  favorites_only: Type.Optional(Type.Boolean({ default: false, description: 'ignored for guests' })),
  unread_only: Type.Optional(Type.Boolean({ default: false, description: 'ignored for guests' })),
  topic_id: Type.Optional(Uuid()),
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  collapse: Type.Optional(
    Type.Literal('work', {
      description:
        'one row per work: its published version, else its preprint, else its earliest (every sort, filter and search applies to that row)',
    }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'search of title, summary, content and zh-TW translation: websearch syntax ("phrase", OR, -word) plus substring (trigram) matching for CJK text and partial words',
    }),
  ),
  ...Pagination,
});
const FlushOut = Type.Object({ articles: Type.Integer(), views: Type.Integer() });

export const summaryOut = (a: ArticleSummary) => ({
  id: a.id,
  topic_id: a.topicId,
  title: a.title,
  url: a.url,
  source: a.source,
  summary: a.summary,
  published_at: a.publishedAt?.toISOString() ?? null,
  scraped_at: a.scrapedAt.toISOString(),
  language: a.language,
  doi: a.doi,
  arxiv_id: a.arxivId,
  tags: a.tags,
  metrics: a.metrics,
  view_count: a.viewCount ?? 0,
  is_favorited: a.isFavorited,
  is_read: a.isRead,
  snippet: a.snippet,
  work: a.work,
});
const detailOut = (a: ReaderArticle) => ({
  ...summaryOut(a),
  content: a.content,
  content_html: a.contentHtml,
  metric_details: a.metricDetails.map((m) => ({
    key: m.key,
    value: m.value,
    source: m.source,
    fetched_at: m.fetchedAt?.toISOString() ?? null,
  })),
  author: a.author,
  translations: a.translations,
});

export const articleRoutes =
  (services: Services, opts: Pick<HttpOptions, 'trustedProxies'>): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/articles',
      {
        // a search costs the database far more than a page of the list: only searches count
        config: {
          rateLimit: 'search',
          rateLimitWhen: (req) => !!(req.query as { q?: unknown }).q,
        },
        schema: {
          tags: ['articles'],
          summary: 'Articles, sorted and filtered; rows without a sort value come last',
          querystring: ListQuery,
          response: { 200: ArticlePageOut, ...errors(422, 429) },
        },
      },
      async (req) => {
        const { favorites_only, unread_only, topic_id, ...q } = req.query;
        const page = await services.articles.list(
          { ...q, favoritesOnly: favorites_only, unreadOnly: unread_only, topicId: topic_id },
          req.principal?.userId ?? null,
        );
        return { ...page, items: page.items.map(summaryOut) };
      },
    );

    app.get(
      '/articles/:id',
      {
        schema: {
          tags: ['articles'],
          summary: 'The reader view; marks the article read for a signed-in caller (not with a read token)',
          params: IdParams,
          response: { 200: ArticleDetailOut, ...errors(404, 422) },
        },
      },
      async (req) =>
        detailOut(
          await services.articles.get(req.params.id, req.principal?.userId ?? null, {
            markRead: req.principal?.token?.scope !== 'read',
          }),
        ),
    );

    app.post(
      '/articles/:id/view',
      {
        config: { rateLimit: 'view' },
        schema: {
          tags: ['articles'],
          summary: 'Count a view (once per IP and article per 24 h); always 204',
          params: IdParams,
          response: { 204: NoContent, ...errors(422) },
        },
      },
      async (req, reply) => {
        await services.views.recordView(req.params.id, clientKey(req, opts.trustedProxies));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/admin/articles/flush-view-counts',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin'],
          security: [{ bearer: [] }],
          summary: 'Flush cached view counters into stored view_count now',
          response: { 200: FlushOut, ...errors(401, 403) },
        },
      },
      async () => services.views.flush(),
    );
  };
