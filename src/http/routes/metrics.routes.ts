import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

const PublicEntry = Type.Object({
  metric_key: Type.String(),
  label_i18n_key: Type.String(),
  icon_name: Nullable(Type.String()),
  format_hint: Type.String(),
  unit: Type.String(),
});
const AdminEntry = Type.Object({
  id: Uuid(),
  metric_key: Type.String(),
  label_i18n_key: Type.String(),
  icon_name: Nullable(Type.String()),
  format_hint: Type.String(),
  unit: Type.String(),
  enabled: Type.Boolean(),
});
const sec = { security: [{ bearer: [] }] };

export const metricsRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const c = services.metricCatalog;
    app.get(
      '/metric-definitions',
      {
        schema: {
          tags: ['metrics'],
          summary: 'Enabled catalog metrics, in extraction-priority order',
          response: { 200: Type.Array(PublicEntry) },
        },
      },
      async () => c.listPublic(),
    );
    app.get(
      '/admin/metric-definitions',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin', 'metrics'],
          ...sec,
          summary: 'Every catalog metric with its id and enabled flag',
          response: { 200: Type.Array(AdminEntry), ...errors(401, 403) },
        },
      },
      async () => c.listAdmin(),
    );
    app.get(
      '/admin/metric-definitions/icons',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin', 'metrics'],
          ...sec,
          summary: 'The icon whitelist',
          response: { 200: Type.Object({ icons: Type.Array(Type.String()) }), ...errors(401, 403) },
        },
      },
      async () => c.icons(),
    );
    app.patch(
      '/admin/metric-definitions/:id',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin', 'metrics'],
          ...sec,
          summary: 'Toggle a metric or choose its icon (only these two fields are ever applied)',
          params: IdParams,
          body: Obj({
            enabled: Type.Optional(Type.Boolean()),
            icon_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
          }),
          response: { 200: AdminEntry, ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => c.update(req.params.id, req.body),
    );
    app.post(
      '/admin/jobs/refresh-metrics',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['jobs', 'metrics'],
          ...sec,
          summary: 'Start the metric refresh (missing or day-old values of enabled metrics) as a run',
          description:
            'Answers the run id at once; GET /admin/runs/{id} shows its progress, summary and the ' +
            'articles whose values no source could give. 409 while a refresh is running.',
          response: { 202: Obj({ run_id: Uuid() }), ...errors(401, 403, 409) },
        },
      },
      async (_req, reply) => reply.status(202).send(await services.jobs.startMetricRefresh()),
    );
  };
