import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireSession, requireUser } from '../plugins/auth.js';
import type { Services } from '../services.js';

export const UserOut = Type.Object({
  id: Uuid(),
  email: Type.String(),
  display_name: Nullable(Type.String()),
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
});
export const SessionOut = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
  user: UserOut,
});
export const Email = Type.String({ format: 'email', maxLength: 254 });

export const authRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/auth/register',
      {
        config: { rateLimit: 'register' },
        schema: {
          tags: ['auth'],
          summary: 'Create an account and sign in',
          body: Obj({
            email: Email,
            password: Type.String({
              minLength: 10,
              maxLength: 256,
              description: 'at least 10 characters, not only whitespace, not a common password',
            }),
            display_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
            locale: Type.Optional(
              Type.Union([Type.Literal('en'), Type.Literal('zh-TW')], {
                description: 'the language signed up in: the default language of the notifications',
              }),
            ),
          }),
          response: { 201: SessionOut, ...errors(403, 409, 422, 429) },
        },
      },
      async (req, reply) => reply.status(201).send(await services.auth.register(req.body)),
    );

    app.post(
      '/auth/login',
      {
        config: { rateLimit: 'login', loginThrottle: true },
        schema: {
          tags: ['auth'],
          summary: 'Sign in with e-mail and password',
          body: Obj({ email: Email, password: Type.String({ minLength: 1, maxLength: 256 }) }),
          description:
            '429 `rate_limited`: too many attempts from this address; 429 `sign_in_delayed`: too many failed attempts on this account, Retry-After says when the next may go ahead',
          response: { 200: SessionOut, ...errors(401, 422, 429) },
        },
      },
      async (req) => services.auth.login(req.body),
    );

    app.get(
      '/auth/registration',
      {
        schema: {
          tags: ['auth'],
          summary: 'Whether anyone may sign up (REGISTRATION=open) or only admins create accounts',
          response: {
            200: Type.Object({
              registration: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
              password_reset_by_email: Type.Boolean({
                description: 'whether "Forgot password" can e-mail a link (SMTP_URL is set)',
              }),
            }),
          },
        },
      },
      async () => ({
        ...services.auth.registration(),
        password_reset_by_email: services.accounts.resetByEmail(),
      }),
    );

    app.post(
      '/auth/logout',
      {
        preHandler: requireSession,
        schema: {
          tags: ['auth'],
          summary: 'Sign out: this token and every other one of the account are refused from now on',
          security: [{ bearer: [] }],
          response: { 204: NoContent, ...errors(401, 403) },
        },
      },
      async (req, reply) => {
        await services.auth.logout(principalOf(req));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/auth/me',
      {
        preHandler: requireUser,
        schema: {
          tags: ['auth'],
          summary: 'The signed-in user',
          security: [{ bearer: [] }],
          response: { 200: UserOut, ...errors(401) },
        },
      },
      async (req) => services.auth.me(principalOf(req)),
    );
  };
