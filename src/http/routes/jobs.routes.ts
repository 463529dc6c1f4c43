import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime, Nullable, Obj, Pagination, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

const DeadJobOut = Type.Object({
  id: Uuid(),
  queue: Type.String(),
  article_id: Nullable(Uuid()),
  run_id: Nullable(Uuid()),
  url: Nullable(Type.String()),
  stage: Nullable(Type.String({ description: 'processing, analysis, tag_normalization or translation' })),
  error: Type.String(),
  attempts: Type.Integer({ minimum: 1 }),
  failed_at: DateTime(),
});

export const jobsRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/admin/jobs/dead',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin'],
          summary: 'Article jobs that failed for good (dead-letter queue), newest first',
          security: [{ bearer: [] }],
          querystring: Obj(Pagination),
          response: {
            200: Obj({
              items: Type.Array(DeadJobOut),
              total: Type.Integer(),
              limit: Type.Integer(),
              offset: Type.Integer(),
            }),
            ...errors(401, 403, 422),
          },
        },
      },
      async (req) => services.deadJobs.list({ limit: req.query.limit ?? 20, offset: req.query.offset ?? 0 }),
    );
  };
