import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireUser } from '../plugins/auth.js';
import type { Services } from '../services.js';

const Locale = Type.Union([Type.Literal('en'), Type.Literal('zh-TW')]);
const Settings = Type.Object({
  email_enabled: Type.Boolean(),
  messenger_chat_id: Nullable(Type.String()),
  messenger_enabled: Type.Boolean(),
  locale: Locale,
  reader_summary_block: Type.Boolean({
    description:
      'phone apps (the Google Reader API) show our summary and zh-TW translation above each article',
  }),
  delivery: Type.Object(
    { email: Type.Boolean(), telegram: Type.Boolean() },
    {
      description: 'Whether the server can send e-mail (SMTP_URL) and Telegram messages (TELEGRAM_BOT_TOKEN)',
    },
  ),
});
const guarded = { preHandler: requireUser };
const sec = { security: [{ bearer: [] }] };

export const userRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const p = services.preferences;
    app.get(
      '/user/subscriptions',
      {
        ...guarded,
        schema: {
          tags: ['user'],
          ...sec,
          summary: "The caller's topic subscriptions",
          response: {
            200: Type.Object({
              subscriptions: Type.Array(
                Type.Object({ topic_id: Uuid(), topic_name: Type.String(), created_at: Type.String() }),
              ),
            }),
            ...errors(401),
          },
        },
      },
      async (req) => p.subscriptions(principalOf(req).userId),
    );
    app.post(
      '/user/subscriptions',
      {
        ...guarded,
        schema: {
          tags: ['user'],
          ...sec,
          summary: 'Subscribe to a topic (subscribing again answers the existing subscription)',
          body: Obj({ topic_id: Uuid() }),
          response: { 201: Type.Object({ id: Uuid(), topic_id: Uuid() }), ...errors(401, 404, 422) },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await p.subscribe(principalOf(req).userId, req.body.topic_id)),
    );
    app.delete(
      '/user/subscriptions/:topic_id',
      {
        ...guarded,
        schema: {
          tags: ['user'],
          ...sec,
          summary: 'Unsubscribe from a topic',
          params: Obj({ topic_id: Uuid() }),
          response: { 204: NoContent, ...errors(401, 422) },
        },
      },
      async (req, reply) => {
        await p.unsubscribe(principalOf(req).userId, req.params.topic_id);
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/user/notification-settings',
      {
        ...guarded,
        schema: {
          tags: ['user'],
          ...sec,
          summary: "The caller's notification settings",
          response: { 200: Settings, ...errors(401) },
        },
      },
      async (req) => p.settings(principalOf(req).userId),
    );
    app.put(
      '/user/notification-settings',
      {
        ...guarded,
        schema: {
          tags: ['user'],
          ...sec,
          summary: 'Save the notification settings (upsert)',
          body: Obj({
            email_enabled: Type.Boolean(),
            messenger_chat_id: Nullable(Type.String({ maxLength: 64 })),
            messenger_enabled: Type.Boolean(),
            locale: Locale,
            reader_summary_block: Type.Optional(
              Type.Boolean({ description: 'absent: left as it is (default on)' }),
            ),
          }),
          response: { 200: Settings, ...errors(401, 422) },
        },
      },
      async (req) => p.saveSettings(principalOf(req).userId, req.body),
    );
  };
