import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { WEBHOOK_EVENTS } from '../../domain/webhooks.js';
import { adminCrud } from './admin-crud.js';

const Event = Type.Union(
  [Type.Literal('article.published'), Type.Literal('report.completed'), Type.Literal('run.failed')],
  { description: 'article.published, report.completed or run.failed' },
);
const WebhookFields = {
  id: Uuid(),
  url: Type.String(),
  events: Type.Array(Event),
  enabled: Type.Boolean(),
  created_at: DateTime(),
  updated_at: DateTime(),
};
const WebhookOut = Type.Object(WebhookFields, { title: 'WebhookOut' });
const WebhookCreated = Type.Object(
  {
    ...WebhookFields,
    secret: Type.String({ description: 'the signing secret: answered this once, never again' }),
  },
  { title: 'WebhookCreated' },
);
const DeliveryStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('retrying'),
  Type.Literal('delivered'),
  Type.Literal('failed'),
]);
const DeliveryOut = Type.Object(
  {
    id: Uuid(),
    event: Event,
    event_id: Uuid({ description: 'the body `id` and the X-Webhook-Id header' }),
    status: DeliveryStatus,
    attempts: Type.Array(
      Type.Object({
        attempt: Type.Integer({ minimum: 1 }),
        at: DateTime(),
        status_code: Nullable(Type.Integer()),
        latency_ms: Type.Integer({ minimum: 0 }),
        error: Nullable(Type.String()),
      }),
    ),
    response_excerpt: Nullable(Type.String({ description: "the last answer's first 4 KB" })),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'WebhookDeliveryOut' },
);

const fields = {
  url: Type.String({ minLength: 8, maxLength: 2048, pattern: '^https?://' }),
  secret: Type.Optional(
    Type.String({
      minLength: 16,
      maxLength: 256,
      description: 'write-only; generated when absent (and answered once by the create)',
    }),
  ),
  events: Type.Array(Event, { minItems: 1, maxItems: WEBHOOK_EVENTS.length }),
  enabled: Type.Optional(Type.Boolean()),
};
const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };

/** Admin webhook endpoints (Admin → Catalog → Webhooks), their deliveries and a resend. */
export const webhookRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const w = services.webhooks;

    adminCrud(app, {
      path: '/admin/webhooks',
      list: {
        summary: 'Webhook endpoints (never their secret)',
        out: Type.Array(WebhookOut),
        run: () => w.list(),
      },
      create: {
        summary: 'Add a webhook endpoint; the answer holds its secret, shown this once',
        description:
          'The URL must reach a public address under the outbound rules of feeds (FETCH_ALLOWED_HOSTS): ' +
          '422 webhook_url_refused otherwise. It is judged again at every delivery.',
        fields,
        out: WebhookCreated,
        errors: [],
        run: (body) => w.create(body),
      },
      update: {
        summary: 'Change a webhook endpoint (a new URL is judged again; a new secret is not answered)',
        fields,
        out: WebhookOut,
        errors: [404],
        run: (id, body) => w.update(id, body),
      },
      remove: { summary: 'Delete a webhook endpoint and its deliveries', run: (id) => w.remove(id) },
    });

    app.get(
      '/admin/webhooks/:id/deliveries',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          summary: "The endpoint's last 50 deliveries, newest first, each with its attempts",
          params: Obj({ id: Uuid() }),
          response: { 200: Type.Object({ items: Type.Array(DeliveryOut) }), ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => w.deliveries(req.params.id),
    );

    app.post(
      '/admin/webhooks/:id/deliveries/:deliveryId/resend',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          ...sec,
          summary: 'Send a delivery again (the same body, signed afresh) through the queue',
          params: Obj({ id: Uuid(), deliveryId: Uuid() }),
          response: { 202: DeliveryOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req, reply) => reply.status(202).send(await w.resend(req.params.id, req.params.deliveryId)),
    );
  };
