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
});

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
          response: { 200: Type.Object({ marked: Type.Integer() }), ...errors(401, 422) },
        },
      },
      async (req) => {
        const { topic_id, favorites_only, ...rest } = req.body;
        return reads.markAll(principalOf(req).userId, {
          ...rest,
          topicId: topic_id,
          favoritesOnly: favorites_only,
        });
      },
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
        schema: {
          tags: ['articles'],
          summary:
            "Up to five nearest articles of the same topic by embedding cosine, among the topic's 5,000 most recent",
          params: IdParams,
          response: { 200: Type.Object({ items: Type.Array(ArticleOut) }), ...errors(404, 422) },
        },
      },
      async (req) => {
        const { items } = await services.similar.similar(req.params.id, req.principal?.userId ?? null);
        return { items: items.map(summaryOut) };
      },
    );
  };
