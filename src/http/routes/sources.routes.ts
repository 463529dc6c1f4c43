import { Type, type TLiteral } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FEED_PROBLEMS, FETCH_INTERVAL } from '../../domain/catalog.js';
import { DateTime, IdParams, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { adminCrud } from './admin-crud.js';

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)) as unknown as [TLiteral<T>]);

const SourceKind = Type.Union([Type.Literal('rss'), Type.Literal('arxiv')]);
const HttpUrl = Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://' });
const Interval = Type.Integer({
  minimum: FETCH_INTERVAL.min,
  maximum: FETCH_INTERVAL.max,
  description: `minutes between scheduled reads (default ${FETCH_INTERVAL.default})`,
});
const ProblemCode = literals(FEED_PROBLEMS);

const FetchOut = Type.Object({
  id: Uuid(),
  run_id: Nullable(Uuid()),
  started_at: DateTime(),
  duration_ms: Type.Integer({ minimum: 0 }),
  http_status: Nullable(Type.Integer({ description: '304: not modified; null: no answer came' })),
  items_seen: Type.Integer({ minimum: 0 }),
  items_new: Nullable(Type.Integer({ description: 'null until the run stored the items' })),
  items_duplicate: Nullable(Type.Integer()),
  error_code: Nullable(ProblemCode),
  error: Nullable(Type.String()),
});
const sourceOutFields = {
  id: Uuid(),
  topic_id: Uuid(),
  name: Type.String(),
  kind: SourceKind,
  url: Type.String(),
  enabled: Type.Boolean(),
  fetch_interval_minutes: Type.Integer(),
  last_fetched_at: Nullable(Type.String()),
  next_fetch_at: Nullable(
    Type.String({ description: 'when a scheduled run reads it next; null: at the next one' }),
  ),
  last_error: Nullable(Type.String()),
  last_fetch: Nullable(FetchOut),
};
const SourceOut = Type.Object(sourceOutFields);
const CreatedSourceOut = Type.Object({
  ...sourceOutFields,
  first_fetch_run_id: Nullable(
    Type.String({
      description:
        'the run that reads the new source at once (GET /admin/runs/{id}) when fetch_now; null without fetch_now, for a disabled source, or while another scraper run is under way: then it is read as soon as that one ends',
    }),
  ),
});
const sourceFields = {
  topic_id: Uuid(),
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 120, description: "default: the feed's own title" }),
  ),
  kind: SourceKind,
  url: HttpUrl,
  enabled: Type.Optional(Type.Boolean()),
  fetch_interval_minutes: Type.Optional(Interval),
  force: Type.Optional(
    Type.Boolean({ description: 'save without checking that the URL answers a feed (default false)' }),
  ),
};
const Problem = Type.Object({
  code: ProblemCode,
  message: Type.String(),
  http_status: Type.Optional(Type.Integer()),
  line: Type.Optional(Type.Integer()),
});
const Discovered = Type.Object({
  url: Type.String(),
  title: Nullable(Type.String()),
  type: Nullable(literals(['rss', 'atom', 'json'] as const)),
});
const PreviewOut = Type.Object({
  requested_url: Type.String(),
  url: Type.String({ description: 'the address to save (the feed the page links to, when one)' }),
  status: literals(['feed', 'page', 'problem'] as const),
  final_url: Nullable(Type.String()),
  http_status: Nullable(Type.Integer()),
  feed: Nullable(
    Type.Object({
      format: literals(['rss', 'rdf', 'atom', 'json'] as const),
      title: Nullable(Type.String()),
      item_count: Type.Integer({ minimum: 0 }),
      newest: Nullable(
        Type.Object({ title: Type.String(), url: Type.String(), published_at: Nullable(DateTime()) }),
      ),
    }),
  ),
  page_title: Nullable(Type.String()),
  discovered: Type.Array(Discovered),
  problem: Nullable(Problem),
});

const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };

/** The admin's sources (docs/decisions/0085-sources-that-explain-themselves.md). */
export const sourcesRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const s = services.sources;

    adminCrud(app, {
      path: '/admin/sources',
      list: {
        summary: 'Sources with their latest fetch result and next scheduled fetch',
        query: { topic_id: Type.Optional(Uuid()) },
        out: Type.Array(SourceOut),
        run: (query) => s.list(query.topic_id),
      },
      create: {
        summary: 'Add a source; its URL must answer a feed (422 source_not_a_feed) unless force',
        fields: {
          ...sourceFields,
          fetch_now: Type.Optional(
            Type.Boolean({
              description:
                'read the new source at once (first_fetch_run_id), not at the next scheduled run; the admin form sends true (default false)',
            }),
          ),
        },
        out: CreatedSourceOut,
        errors: [404, 409], // 404: the topic named by topic_id does not exist
        run: (body) => s.create(body),
      },
      update: {
        summary: 'Edit a source; a new URL is checked like a new source unless force',
        fields: sourceFields,
        out: SourceOut,
        errors: [404, 409],
        run: (id, body) => s.update(id, body),
      },
      remove: { run: (id) => services.catalog.deleteSource(id) },
    });
    app.post(
      '/admin/sources/preview',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary:
            "Read a URL as the scraper would: the feed's title, format, item count and newest item, " +
            'the feeds an HTML page links to, or why it is not a feed',
          ...sec,
          body: Obj({ url: HttpUrl }),
          response: { 200: PreviewOut, ...errors(401, 403, 422) },
        },
      },
      async (req) => s.preview(req.body.url),
    );
    app.get(
      '/admin/sources/:id/fetches',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: "The source's last 20 fetch results, newest first",
          ...sec,
          params: IdParams,
          response: { 200: Type.Array(FetchOut), ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => s.history(req.params.id),
    );
    app.post(
      '/admin/sources/:id/fetch',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'Start a scraper run of this one source; it continues in the background',
          ...sec,
          params: IdParams,
          response: { 202: Obj({ run_id: Uuid() }), ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req, reply) => reply.status(202).send(await s.fetchNow(req.params.id)),
    );
  };
