import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime, IdParams, NoContent, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireSession } from '../plugins/auth.js';
import type { Services } from '../services.js';

const Scope = Type.Union([Type.Literal('read'), Type.Literal('write')], {
  description: 'read: GET only (and the read tools of /mcp); write: also marks read and favorites',
});
const TokenFields = {
  id: Uuid(),
  name: Type.String(),
  scope: Scope,
  admin: Type.Boolean({
    description: "made with an admin's own session: admin rights while the owner is an admin",
  }),
  prefix: Type.String({ description: 'the public beginning of the token, to tell tokens apart' }),
  created_at: DateTime(),
  last_used_at: Nullable(DateTime()),
};
const TokenOut = Type.Object(TokenFields, { title: 'AccessTokenOut' });
const CreatedOut = Type.Object(
  {
    ...TokenFields,
    token: Type.String({ description: 'the secret: answered this once, only its hash is kept' }),
  },
  { title: 'AccessTokenCreated' },
);
const session = { preHandler: requireSession };
const sec = { security: [{ bearer: [] }] };

/** Personal access tokens of the signed-in user (Settings → Access tokens). */
export const tokenRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tokens = services.tokens;

    app.post(
      '/user/tokens',
      {
        ...session,
        schema: {
          tags: ['user'],
          ...sec,
          summary: 'Create a personal access token; the answer holds the token, shown this once',
          body: Obj({ name: Type.String({ minLength: 1, maxLength: 100 }), scope: Scope }),
          response: { 201: CreatedOut, ...errors(401, 403, 409, 422) },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .header('cache-control', 'no-store')
          .send(await tokens.create(principalOf(req), req.body)),
    );

    app.get(
      '/user/tokens',
      {
        ...session,
        schema: {
          tags: ['user'],
          ...sec,
          summary: "The caller's tokens, newest first, with their last use (never their secret)",
          response: { 200: Type.Object({ items: Type.Array(TokenOut) }), ...errors(401, 403) },
        },
      },
      async (req) => tokens.list(principalOf(req)),
    );

    app.delete(
      '/user/tokens/:id',
      {
        ...session,
        schema: {
          tags: ['user'],
          ...sec,
          summary: 'Revoke a token: refused from the next request on',
          params: IdParams,
          response: { 204: NoContent, ...errors(401, 403, 404, 422) },
        },
      },
      async (req, reply) => {
        await tokens.revoke(principalOf(req), req.params.id);
        return reply.status(204).send(null);
      },
    );
  };
