import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime, IdParams, Nullable, Obj, Pagination, errors } from '../schemas/common.js';
import { principalOf, requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { adminCrud } from './admin-crud.js';
import { Email, UserOut } from './auth.routes.js';

const Role = Type.Union([Type.Literal('user'), Type.Literal('admin')]);
const AccountOut = Type.Object({
  ...UserOut.properties,
  disabled: Type.Boolean(),
  created_at: DateTime(),
});
const ResetOut = Type.Union([
  Type.Object({ mode: Type.Literal('link'), url: Type.String(), expires_at: DateTime() }),
  Type.Object({ mode: Type.Literal('temporary'), password: Type.String() }),
]);
const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };

/** The admin Users page; the CLI's user:create beside a running service comes here too. */
export const adminUserRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    adminCrud(app, {
      path: '/admin/users',
      list: {
        summary: 'Accounts, newest first; search matches e-mail or name',
        query: { search: Type.Optional(Type.String({ maxLength: 200 })), ...Pagination },
        out: Type.Object({ items: Type.Array(AccountOut), total: Type.Integer() }),
        run: (query) =>
          services.accounts.list({
            search: query.search,
            limit: query.limit ?? 20,
            offset: query.offset ?? 0,
          }),
      },
      update: {
        summary: 'Promote, demote, disable or enable an account (409 last_admin for the last enabled admin)',
        fields: { role: Role, disabled: Type.Boolean() },
        out: AccountOut,
        errors: [404, 409],
        run: (id, body, req) => services.accounts.update(principalOf(req), id, body),
      },
    });

    // create answers 200 (update_existing) or 201, so it is written out
    app.post(
      '/admin/users',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'Create an account (409 when the e-mail is taken, unless update_existing)',
          description:
            'update_existing (the CLI user:create): an existing account gets this password, and the admin role when asked.',
          ...sec,
          body: Obj({
            email: Email,
            password: Type.String({ minLength: 10, maxLength: 256 }),
            display_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
            role: Type.Optional(Role),
            update_existing: Type.Optional(Type.Boolean()),
          }),
          response: {
            200: Obj({ user: AccountOut, created: Type.Boolean() }),
            201: Obj({ user: AccountOut, created: Type.Boolean() }),
            ...errors(401, 403, 409, 422),
          },
        },
      },
      async (req, reply) => {
        const result = await services.accounts.create({ ...req.body, role: req.body.role ?? 'user' });
        return reply.status(result.created ? 201 : 200).send(result);
      },
    );

    app.post(
      '/admin/users/:id/password-reset',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'Reset a password: a one-time link (24 h) or a temporary password, shown this once',
          description:
            'temporary: the password is set now and every session of the account is signed out. link: the password stays until the link is used.',
          ...sec,
          params: IdParams,
          body: Obj({ mode: Type.Union([Type.Literal('link'), Type.Literal('temporary')]) }),
          response: { 200: ResetOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req, reply) =>
        reply
          .header('cache-control', 'no-store')
          .send(await services.accounts.resetPassword(principalOf(req), req.params.id, req.body.mode)),
    );
  };
