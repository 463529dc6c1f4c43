import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Obj, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import type { BatchKind, Fetched } from '../../application/monitoring/monitoring.service.js';
import { ENVIRONMENTS, TIME_RANGES } from '../../application/monitoring/panel-catalog.js';
import { serviceStatsRoutes } from './service-stats.routes.js';

const Expr = Type.String({ minLength: 1, maxLength: 4000 });
const Time = Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Number()]);
const Step = Type.Union([Type.String({ minLength: 1, maxLength: 20 }), Type.Number({ exclusiveMinimum: 0 })]);
const Direction = Type.Union([Type.Literal('backward'), Type.Literal('forward')]);
const Duration = Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h)$', maxLength: 20 });

const BatchBody = Obj({
  queries: Type.Array(
    Obj({
      id: Type.String({ minLength: 1, maxLength: 100 }),
      query: Type.Optional(Expr),
      q: Type.Optional(Expr),
      start: Type.Optional(Time),
      end: Type.Optional(Time),
      step: Type.Optional(Step),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
      direction: Type.Optional(Direction),
      minDuration: Type.Optional(Duration),
    }),
    { maxItems: 200 },
  ),
});
const BatchResults = Type.Object({
  results: Type.Array(
    Type.Object({
      id: Type.String(),
      status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
      data: Type.Optional(Type.Any()),
      stale: Type.Optional(Type.Boolean()),
      fetched_at: Type.Optional(Type.String()),
      error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
      last_fetched_at: Type.Optional(
        Type.String({ description: 'on an error: when this question last had an answer' }),
      ),
    }),
  ),
});
const Passthrough = Type.Any({ description: 'the upstream payload, passed through' });
const single = { 200: Passthrough, ...errors(401, 403, 422, 429, 502, 503, 504) };
const admin = { preHandler: requireAdmin };
const tags = ['monitoring'];
const sec = { security: [{ bearer: [] }] };

/** Single GETs tell the dashboard when they answer the last good data of a rate-limited store. */
function send(reply: FastifyReply, f: Fetched) {
  reply.header('x-monitor-fetched-at', f.fetchedAt.toISOString());
  if (f.stale) reply.header('x-monitor-stale', 'true');
  return reply.send(f.data);
}

export const monitorRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const m = services.monitoring;

    app.get(
      '/monitor/panels',
      {
        ...admin,
        schema: {
          tags,
          ...sec,
          summary: 'The dashboard panel catalog: every query, built from the global filters',
          querystring: Obj({
            range: Type.Optional(
              Type.Union(
                TIME_RANGES.map((r) => Type.Literal(r)),
                { default: '24h' },
              ),
            ),
            env: Type.Optional(
              Type.Union(
                ENVIRONMENTS.map((e) => Type.Literal(e)),
                { default: 'all' },
              ),
            ),
          }),
          response: { 200: Passthrough, ...errors(401, 403, 422) },
        },
      },
      async (req) => m.panels(req.query.range ?? '24h', req.query.env ?? 'all'),
    );

    app.get(
      '/monitor/metrics',
      {
        ...admin,
        schema: {
          tags,
          ...sec,
          summary: 'Metrics range query (passed through)',
          querystring: Obj({ query: Expr, start: Time, end: Time, step: Step }),
          response: single,
        },
      },
      async (req, reply) => send(reply, await m.single('metrics', req.query)),
    );

    app.get(
      '/monitor/logs',
      {
        ...admin,
        schema: {
          tags,
          ...sec,
          summary: 'Log range query (passed through); aggregate queries answer a matrix',
          querystring: Obj({
            query: Expr,
            start: Time,
            end: Time,
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 100 })),
            direction: Type.Optional(Direction),
            step: Type.Optional(Step),
          }),
          response: single,
        },
      },
      async (req, reply) => send(reply, await m.single('logs', req.query)),
    );

    app.get(
      '/monitor/traces',
      {
        ...admin,
        schema: {
          tags,
          ...sec,
          summary: 'Trace search (passed through)',
          querystring: Obj({
            q: Expr,
            start: Type.Optional(Time),
            end: Type.Optional(Time),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 20 })),
            minDuration: Type.Optional(Duration),
          }),
          response: single,
        },
      },
      async (req, reply) => send(reply, await m.single('traces', req.query)),
    );

    app.get(
      '/monitor/traces/:id',
      {
        ...admin,
        schema: {
          tags,
          ...sec,
          summary: 'One trace, normalized to batches (404 trace_not_found when the store has no such trace)',
          params: Obj({ id: Type.String({ pattern: '^[0-9a-fA-F]{1,32}$' }) }),
          response: { ...single, ...errors(404) },
        },
      },
      async (req) => m.trace(req.params.id),
    );

    const batch = (path: string, kind: BatchKind, summary: string) =>
      app.post(
        path,
        {
          ...admin,
          schema: {
            tags,
            ...sec,
            summary,
            body: BatchBody,
            response: { 200: BatchResults, ...errors(401, 403, 422, 503) },
          },
        },
        async (req) => m.batch(kind, req.body.queries),
      );
    batch('/monitor/metrics/batch', 'metrics', 'Metrics range queries, concurrently; each fails on its own');
    batch('/monitor/logs/batch', 'logs', 'Log range queries, concurrently; each fails on its own');
    batch(
      '/monitor/log-metrics/batch',
      'log-metrics',
      'Log aggregate queries (count_over_time, rate, unwrap): matrix results',
    );
    batch('/monitor/traces/batch', 'traces', 'Trace searches, concurrently; each fails on its own');

    // the Service tab: the service's own database, no monitoring store needed
    await app.register(serviceStatsRoutes(services));
  };
