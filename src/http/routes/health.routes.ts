import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../services.js';

export const healthRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['system'],
          summary: 'Liveness: the process answers',
          response: { 200: Type.Object({ status: Type.Literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    const Ready = Type.Object({
      status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
      checks: Type.Object({ database: Type.Boolean(), cache: Type.Boolean() }),
    });
    app.get(
      '/ready',
      {
        schema: {
          tags: ['system'],
          summary: 'Readiness: the database and the cache answer',
          response: { 200: Ready, 503: Ready },
        },
      },
      async (_req, reply) => {
        const checks = await services.readiness();
        const ok = checks.database && checks.cache;
        return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'unavailable', checks });
      },
    );
  };
