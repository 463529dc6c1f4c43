import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
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

interface AdminWrites<F extends TProperties, O extends TSchema> {
  path: string;
  out: O;
  fields: F;
  /** what a write can answer besides 401, 403 and 422 */
  createErrors: number[];
  updateErrors: number[];
  create(body: Static<TObject<F>>): Promise<Static<O>>;
  update(id: string, body: Partial<Static<TObject<F>>>): Promise<Static<O>>;
  remove(id: string): Promise<void>;
}

/** typed as a plain status map: the handlers' results are checked against AdminWrites instead */
const responses = (ok: number, out: TSchema, more: number[]): Record<number, TSchema> => ({
  [ok]: out,
  ...errors(401, 403, ...more, 422),
});

/** POST {path}, PATCH {path}/:id and DELETE {path}/:id of one admin catalog resource. */
function adminWrites<F extends TProperties, O extends TSchema>(
  app: FastifyInstance<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    FastifyBaseLogger,
    TypeBoxTypeProvider
  >,
  w: AdminWrites<F, O>,
): void {
  app.post(
    w.path,
    {
      ...admin,
      schema: {
        tags: ['admin'],
        ...sec,
        body: Obj(w.fields),
        response: responses(201, w.out, w.createErrors),
      },
    },
    async (req, reply) => reply.status(201).send(await w.create(req.body as Static<TObject<F>>)),
  );
  app.patch(
    `${w.path}/:id`,
    {
      ...admin,
      schema: {
        tags: ['admin'],
        ...sec,
        params: IdParams,
        body: PartialObj(w.fields),
        response: responses(200, w.out, w.updateErrors),
      },
    },
    async (req) => w.update(req.params.id, req.body as Partial<Static<TObject<F>>>),
  );
  app.delete(
    `${w.path}/:id`,
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
      await w.remove(req.params.id);
      return reply.status(204).send(null);
    },
  );
}

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
    adminWrites(app, {
      path: '/admin/topics',
      out: TopicOut,
      fields: topicFields,
      createErrors: [409],
      updateErrors: [404, 409],
      create: (body) => c.createTopic(body),
      update: (id, body) => c.updateTopic(id, body),
      remove: (id) => c.deleteTopic(id),
    });

    // sources: sources.routes.ts

    app.get(
      '/admin/providers',
      {
        ...admin,
        schema: { tags: ['admin'], ...sec, response: { 200: Type.Array(ProviderOut), ...errors(401, 403) } },
      },
      async () => c.listProviders(),
    );
    adminWrites(app, {
      path: '/admin/providers',
      out: ProviderOut,
      fields: providerFields,
      createErrors: [],
      updateErrors: [404],
      create: (body) => c.createProvider(body),
      update: (id, body) => c.updateProvider(id, body),
      remove: (id) => c.deleteProvider(id),
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
