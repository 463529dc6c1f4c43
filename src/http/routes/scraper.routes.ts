import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

const RunOut = Type.Object({
  id: Uuid(),
  status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')]),
  started_at: Type.String({ format: 'date-time' }),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
  counts: Type.Record(Type.String(), Type.Integer()),
});
const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };

export const scraperRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/admin/scraper/runs',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'Start a scraper run; it continues in the background',
          ...sec,
          response: { 202: Obj({ run_id: Uuid() }), ...errors(401, 403, 409) },
        },
      },
      async (_req, reply) => reply.status(202).send(await services.scraper.start('admin')),
    );
    app.get(
      '/admin/scraper/runs/:id',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'Status and counts of a scraper run',
          ...sec,
          params: IdParams,
          response: { 200: RunOut, ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => services.scraper.get(req.params.id),
    );
  };
