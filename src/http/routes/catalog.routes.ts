import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Nullable, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { adminCrud } from './admin-crud.js';

const TopicOut = Type.Object({
  id: Uuid(),
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  is_active: Type.Boolean(),
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

    adminCrud(app, {
      path: '/admin/topics',
      list: { out: Type.Array(TopicOut), run: () => c.listTopics({ includeInactive: true }) },
      create: { fields: topicFields, out: TopicOut, errors: [409], run: (body) => c.createTopic(body) },
      update: {
        fields: topicFields,
        out: TopicOut,
        errors: [404, 409],
        run: (id, body) => c.updateTopic(id, body),
      },
      remove: { run: (id) => c.deleteTopic(id) },
    });

    // sources: sources.routes.ts

    adminCrud(app, {
      path: '/admin/providers',
      list: { out: Type.Array(ProviderOut), run: () => c.listProviders() },
      create: { fields: providerFields, out: ProviderOut, errors: [], run: (body) => c.createProvider(body) },
      update: {
        fields: providerFields,
        out: ProviderOut,
        errors: [404],
        run: (id, body) => c.updateProvider(id, body),
      },
      remove: { run: (id) => c.deleteProvider(id) },
    });
    app.post(
      '/admin/providers/:id/test',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          summary: 'Send one small chat request to the provider and report model, latency and error',
          params: IdParams,
          response: {
            200: Type.Object({
              ok: Type.Boolean(),
              model: Type.String(),
              latency_ms: Type.Integer({ minimum: 0 }),
              error: Type.Optional(Type.String()),
            }),
            ...errors(401, 403, 404, 422),
          },
        },
      },
      async (req) => services.providerTest.test(req.params.id),
    );
  };
