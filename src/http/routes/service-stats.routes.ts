import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { MAX_DAYS } from '../../application/monitoring/service-stats.service.js';

const Count = Type.Integer({ minimum: 0 });
const ServiceStatsBody = Type.Object({
  days: Type.Integer(),
  since: DateTime(),
  generated_at: DateTime(),
  runs_per_day: Type.Array(
    Type.Object({
      day: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
      completed: Count,
      completed_with_errors: Type.Integer({ minimum: 0, description: 'completed, some items failed' }),
      failed: Count,
      interrupted: Type.Integer({ minimum: 0, description: 'stopped by a shutdown or a crash' }),
      running: Type.Integer({ minimum: 0, description: 'queued or running now' }),
    }),
    {
      description:
        'runs of every job (scrape, metrics, reports) started on each day of the window, by final status; oldest first',
    },
  ),
  failures_per_stage: Type.Array(Type.Object({ stage: Type.String(), count: Count })),
  articles_per_source: Type.Array(Type.Object({ source: Type.String(), count: Count }), {
    description: 'articles stored in the window, the 20 largest sources',
  }),
  citation_coverage: Type.Object({
    articles: Count,
    with_citation: Count,
    share: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  }),
  llm_usage_per_day: Type.Array(
    Type.Object({
      day: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
      purpose: Type.String({ description: 'analysis, translation, report, ask...' }),
      calls: Count,
      prompt_tokens: Count,
      completion_tokens: Count,
    }),
    {
      description:
        "the language model's calls and tokens per day and purpose, oldest first; days without calls are absent",
    },
  ),
  last_run_per_source: Type.Array(
    Type.Object({
      source_id: Uuid(),
      name: Type.String(),
      topic: Type.String(),
      enabled: Type.Boolean(),
      last_fetched_at: Nullable(DateTime()),
      last_error: Nullable(Type.String()),
      last_article_at: Nullable(DateTime()),
    }),
  ),
});

/** GET /admin/service-stats: the monitoring page's Service tab, from our own database. */
export const serviceStatsRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/admin/service-stats',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['monitoring'],
          security: [{ bearer: [] }],
          summary: 'Runs per day, failures per stage, articles per source, citation coverage, last runs',
          querystring: Obj({
            days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DAYS, default: 30 })),
          }),
          response: { 200: ServiceStatsBody, ...errors(401, 403, 422) },
        },
      },
      async (req) => services.serviceStats.stats(req.query.days ?? 30),
    );
  };
