import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { adminCrud } from './admin-crud.js';

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
      '/articles/metric-coverage',
      {
        schema: {
          tags: ['metrics', 'articles'],
          summary: 'How many articles have a value of a metric (what sorting by it can order)',
          description:
            'share = with_value / articles; pending_lookups: articles with a DOI or arXiv id whose ' +
            'value has not been looked up yet (looked up within minutes of their arrival). ' +
            '422 for a metric that is unknown or disabled.',
          querystring: Obj({
            metric_key: Type.String({ minLength: 1, maxLength: 100 }),
            topic_id: Type.Optional(Uuid()),
          }),
          response: {
            200: Type.Object({
              metric_key: Type.String(),
              topic_id: Nullable(Uuid()),
              articles: Type.Integer(),
              with_value: Type.Integer(),
              share: Type.Number({ minimum: 0, maximum: 1 }),
              pending_lookups: Type.Integer(),
            }),
            ...errors(422),
          },
        },
      },
      async (req) => c.coverage({ metricKey: req.query.metric_key, topicId: req.query.topic_id }),
    );
    adminCrud(app, {
      path: '/admin/metric-definitions',
      tags: ['admin', 'metrics'],
      list: {
        summary: 'Every catalog metric with its id and enabled flag',
        out: Type.Array(AdminEntry),
        run: () => c.listAdmin(),
      },
      update: {
        summary: 'Toggle a metric or choose its icon (only these two fields are ever applied)',
        fields: {
          enabled: Type.Boolean(),
          icon_name: Nullable(Type.String({ minLength: 1, maxLength: 64 })),
        },
        out: AdminEntry,
        errors: [404],
        run: (id, body) => c.update(id, body),
      },
    });
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
