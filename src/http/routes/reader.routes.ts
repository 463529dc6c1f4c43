import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, Obj, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireUser } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { ArticleOut, summaryOut } from './articles.routes.js';

const user = { preHandler: requireUser };
const sec = { security: [{ bearer: [] }] };

/** the list's filters (GET /articles), for "mark all as read" */
const MarkAllBody = Obj({
  topic_id: Type.Optional(Uuid()),
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  favorites_only: Type.Optional(Type.Boolean({ default: false })),
  dry_run: Type.Optional(
    Type.Boolean({ default: false, description: 'only count the unread articles it would mark' }),
  ),
});
const MarkAllOut = Type.Object({
  marked: Type.Integer({ description: 'articles marked read (with dry_run: that would be)' }),
  undo_token: Type.Union([Type.String(), Type.Null()], {
    description: 'POST it to /articles/read/undo to make exactly these articles unread again',
  }),
});
const UndoBody = Obj({ undo_token: Type.String({ minLength: 1, maxLength: 40 }) });

/** Read state (mark, unmark, mark all of a filter, unread counts) and similar articles. */
export const readerRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const reads = services.readState;

    app.put(
      '/articles/:id/read',
      {
        ...user,
        schema: {
          tags: ['articles'],
          ...sec,
          summary: 'Mark read (idempotent)',
          params: IdParams,
          response: { 204: NoContent, ...errors(401, 404, 422) },
        },
      },
      async (req, reply) => {
        await reads.markRead(principalOf(req).userId, req.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/articles/:id/read',
      {
        ...user,
        schema: {
          tags: ['articles'],
          ...sec,
          summary: 'Mark unread (idempotent)',
          params: IdParams,
          response: { 204: NoContent, ...errors(401, 404, 422) },
        },
      },
      async (req, reply) => {
        await reads.markUnread(principalOf(req).userId, req.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/articles/read',
      {
        ...user,
        schema: {
          tags: ['articles'],
          ...sec,
          summary: 'Mark every article matching the list filter read (at most 50,000 per call, newest first)',
          body: MarkAllBody,
          response: { 200: MarkAllOut, ...errors(401, 422) },
        },
      },
      async (req) => {
        const { topic_id, favorites_only, dry_run, ...rest } = req.body;
        return reads.markAll(
          principalOf(req).userId,
          { ...rest, topicId: topic_id, favoritesOnly: favorites_only },
          dry_run,
        );
      },
    );

    app.post(
      '/articles/read/undo',
      {
        ...user,
        schema: {
          tags: ['articles'],
          ...sec,
          summary: 'Undo one "mark all as read": its articles are unread again',
          body: UndoBody,
          response: { 200: Type.Object({ unmarked: Type.Integer() }), ...errors(401, 422) },
        },
      },
      async (req) => reads.undoMarkAll(principalOf(req).userId, req.body.undo_token),
    );

    app.get(
      '/me/unread-counts',
      {
        ...user,
        schema: {
          tags: ['user'],
          ...sec,
          summary: 'Unread articles per topic (topics with none are left out)',
          response: {
            200: Type.Object({
              items: Type.Array(Type.Object({ topic_id: Uuid(), unread: Type.Integer() })),
              total: Type.Integer(),
            }),
            ...errors(401),
          },
        },
      },
      async (req) => reads.unreadCounts(principalOf(req).userId),
    );

    app.get(
      '/articles/:id/similar',
      {
        config: { rateLimit: 'similar' },
        schema: {
          tags: ['articles'],
          summary:
            "Up to five nearest articles of the same topic by embedding cosine, among the topic's 5,000 most recent",
          params: IdParams,
          response: { 200: Type.Object({ items: Type.Array(ArticleOut) }), ...errors(404, 422, 429) },
        },
      },
      async (req) => {
        const { items } = await services.similar.similar(req.params.id, req.principal?.userId ?? null);
        return { items: items.map(summaryOut) };
      },
    );
  };
