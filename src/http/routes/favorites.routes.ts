import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, Obj, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireUser } from '../plugins/auth.js';
import type { Services } from '../services.js';

const ArticleParams = Obj({ article_id: Uuid() });
const user = { preHandler: requireUser };
const sec = { security: [{ bearer: [] }] };

export const favoriteRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const f = services.favorites;

    app.get(
      '/user/favorites',
      {
        ...user,
        schema: {
          tags: ['user'],
          ...sec,
          response: { 200: Type.Object({ article_ids: Type.Array(Uuid()) }), ...errors(401) },
        },
      },
      async (req) => f.list(principalOf(req).userId),
    );

    app.post(
      '/user/favorites/:article_id',
      {
        ...user,
        schema: {
          tags: ['user'],
          ...sec,
          summary: '201 when created, 204 when already a favorite',
          params: ArticleParams,
          response: { 201: NoContent, 204: NoContent, ...errors(401, 404, 422) },
        },
      },
      async (req, reply) => {
        const created = await f.add(principalOf(req).userId, req.params.article_id);
        return reply.status(created ? 201 : 204).send(null);
      },
    );

    app.delete(
      '/user/favorites/:article_id',
      {
        ...user,
        schema: {
          tags: ['user'],
          ...sec,
          params: ArticleParams,
          response: { 204: NoContent, ...errors(401, 422) },
        },
      },
      async (req, reply) => {
        await f.remove(principalOf(req).userId, req.params.article_id);
        return reply.status(204).send(null);
      },
    );
  };
