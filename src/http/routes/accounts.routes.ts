import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, Obj, errors } from '../schemas/common.js';
import { principalOf, requireSession } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { Email, SessionOut } from './auth.routes.js';

const NewPassword = Type.String({
  minLength: 10,
  maxLength: 256,
  description: 'at least 10 characters, not only whitespace, not a common password',
});
const Locale = Type.Union([Type.Literal('en'), Type.Literal('zh-TW')]);
const sec = { security: [{ bearer: [] }] };

/** The signed-in user's own account (Settings) and the "forgot password" links. */
export const accountRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/password',
      {
        preHandler: requireSession,
        schema: {
          tags: ['auth'],
          summary: 'Change the password (the current one is asked); optionally sign out every other session',
          description:
            'Answers a new session: with sign_out_others the old tokens of the account stop working, this one included.',
          ...sec,
          body: Obj({
            current_password: Type.String({ minLength: 1, maxLength: 256 }),
            new_password: NewPassword,
            sign_out_others: Type.Boolean({ default: true }),
          }),
          response: { 200: SessionOut, ...errors(401, 403, 422) },
        },
      },
      async (req, reply) =>
        reply
          .header('cache-control', 'no-store')
          .send(await services.auth.changePassword(principalOf(req), req.body)),
    );

    app.post(
      '/auth/logout-others',
      {
        preHandler: requireSession,
        schema: {
          tags: ['auth'],
          summary: 'Sign out every other session of the account; answers a new session for this one',
          ...sec,
          response: { 200: SessionOut, ...errors(401, 403) },
        },
      },
      async (req, reply) =>
        reply.header('cache-control', 'no-store').send(await services.auth.signOutOthers(principalOf(req))),
    );

    app.post(
      '/auth/password-reset',
      {
        config: { rateLimit: 'register' },
        schema: {
          tags: ['auth'],
          summary: 'Forgot password: e-mail a one-time link (one hour) to this address if it has an account',
          description:
            'Always 204, whether or not the address has an account; 503 when no SMTP server is configured.',
          body: Obj({ email: Email, locale: Type.Optional(Locale) }),
          response: { 204: NoContent, ...errors(422, 429, 503) },
        },
      },
      async (req, reply) => {
        await services.accounts.requestReset(req.body);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/auth/password-reset/confirm',
      {
        config: { rateLimit: 'register' },
        schema: {
          tags: ['auth'],
          summary: 'Set a new password with a reset link; signs in, every other session is signed out',
          body: Obj({ token: Type.String({ minLength: 20, maxLength: 200 }), password: NewPassword }),
          response: { 200: SessionOut, ...errors(403, 422, 429) },
        },
      },
      async (req, reply) =>
        reply.header('cache-control', 'no-store').send(await services.accounts.confirmReset(req.body)),
    );
  };
