import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, NoContent, Nullable, Obj, PartialObj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

const TopicOut = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  is_active: Type.Boolean(),
});
const SourceKind = Type.Union([Type.Literal('rss'), Type.Literal('arxiv')]);
const SourceOut = Type.Object({
  id: Uuid(),
  topic_id: Uuid(),
  name: Type.String(),
  kind: SourceKind,
  url: Type.String(),
  enabled: Type.Boolean(),
  last_fetched_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
});
const ProviderType = Type.Union([Type.Literal('text'), Type.Literal('multimodal')]);
const ProviderOut = Type.Object({
  id: Uuid(),
  name: Type.String(),
  type: ProviderType,
  base_url: Type.String(),
  model: Type.String(),
  image_model: Nullable(Type.String()),
  has_api_key: Type.Boolean(),
  is_active: Type.Boolean(),
});

const Name = Type.String({ minLength: 1, maxLength: 120 });
const Text = (max: number) => Type.String({ maxLength: max });
const HttpUrl = Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://' });

const topicFields = {
  name: Name,
  description: Type.Optional(Nullable(Text(2000))),
  is_active: Type.Optional(Type.Boolean()),
};
const sourceFields = {
  topic_id: Uuid(),
  name: Name,
  kind: SourceKind,
  url: HttpUrl,
  enabled: Type.Optional(Type.Boolean()),
};
const providerFields = {
  name: Name,
  type: ProviderType,
  base_url: HttpUrl,
  model: Type.String({ minLength: 1, maxLength: 200 }),
  image_model: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  api_key: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 4096 }))),
  is_active: Type.Optional(Type.Boolean()),
};
const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };

export const catalogRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const c = services.catalog;

    app.get(
      '/topics',
      {
        schema: {
          tags: ['topics'],
          summary: 'Active topics',
          response: { 200: Type.Array(TopicOut) },
        },
      },
      async () => c.listTopics(),
    );

    app.get(
      '/admin/topics',
      {
        ...admin,
        schema: { tags: ['admin'], ...sec, response: { 200: Type.Array(TopicOut), ...errors(401, 403) } },
      },
      async () => c.listTopics({ includeInactive: true }),
    );
    app.post(
      '/admin/topics',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          body: Obj(topicFields),
          response: { 201: TopicOut, ...errors(401, 403, 409, 422) },
        },
      },
      async (req, reply) => reply.status(201).send(await c.createTopic(req.body)),
    );
    app.patch(
      '/admin/topics/:id',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          params: IdParams,
          body: PartialObj(topicFields),
          response: { 200: TopicOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req) => c.updateTopic(req.params.id, req.body),
    );
    app.delete(
      '/admin/topics/:id',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          params: IdParams,
          response: { 204: NoContent, ...errors(401, 403, 404) },
        },
      },
      async (req, reply) => {
        await c.deleteTopic(req.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/admin/sources',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          querystring: Obj({ topic_id: Type.Optional(Uuid()) }),
          response: { 200: Type.Array(SourceOut), ...errors(401, 403) },
        },
      },
      async (req) => c.listSources(req.query.topic_id),
    );
    app.post(
      '/admin/sources',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          body: Obj(sourceFields),
          response: { 201: SourceOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req, reply) => reply.status(201).send(await c.createSource(req.body)),
    );
    app.patch(
      '/admin/sources/:id',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          params: IdParams,
          body: PartialObj(sourceFields),
          response: { 200: SourceOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req) => c.updateSource(req.params.id, req.body),
    );
    app.delete(
      '/admin/sources/:id',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          params: IdParams,
          response: { 204: NoContent, ...errors(401, 403, 404) },
        },
      },
      async (req, reply) => {
        await c.deleteSource(req.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/admin/providers',
      {
        ...admin,
        schema: { tags: ['admin'], ...sec, response: { 200: Type.Array(ProviderOut), ...errors(401, 403) } },
      },
      async () => c.listProviders(),
    );
    app.post(
      '/admin/providers',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          body: Obj(providerFields),
          response: { 201: ProviderOut, ...errors(401, 403, 422) },
        },
      },
      async (req, reply) => reply.status(201).send(await c.createProvider(req.body)),
    );
    app.patch(
      '/admin/providers/:id',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          params: IdParams,
          body: PartialObj(providerFields),
          response: { 200: ProviderOut, ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => c.updateProvider(req.params.id, req.body),
    );
    app.delete(
      '/admin/providers/:id',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          params: IdParams,
          response: { 204: NoContent, ...errors(401, 403, 404) },
        },
      },
      async (req, reply) => {
        await c.deleteProvider(req.params.id);
        return reply.status(204).send(null);
      },
    );
  };
