import { Type, type TLiteral } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RUN_KINDS, RUN_STATUSES, RUN_TRIGGERS } from '../../domain/runs.js';
import { DateTime, IdParams, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)) as unknown as [TLiteral<T>]);

const RunFields = {
  id: Uuid(),
  kind: literals(RUN_KINDS),
  status: literals(RUN_STATUSES),
  trigger: literals(RUN_TRIGGERS),
  started_at: DateTime(),
  finished_at: Nullable(DateTime()),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  summary: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()]), {
    description:
      'plain fields: a scrape its counts; metrics articles, updated (values that changed), unchanged, failed, from_<source>; ' +
      'reports week_start, topics, created, existing, skipped, failed',
  }),
  error: Nullable(Type.String({ description: 'why the whole run failed or was interrupted' })),
  error_count: Type.Integer({ description: 'items that failed; the detail lists the first 500' }),
};
const RunItemError = Type.Object({
  source_id: Type.Optional(Uuid()),
  article_id: Type.Optional(Uuid()),
  article_title: Type.Optional(
    Type.String({ description: 'the failed article by name; absent when it was deleted since' }),
  ),
  topic_id: Type.Optional(Uuid()),
  message: Type.String(),
});
const RunSummary = Type.Object(RunFields);
const LlmTotals = {
  calls: Type.Integer({ minimum: 0 }),
  prompt_tokens: Type.Integer({ minimum: 0 }),
  completion_tokens: Type.Integer({ minimum: 0 }),
};
const Run = Type.Object({
  ...RunFields,
  errors: Type.Array(RunItemError),
  llm: Type.Object(
    {
      ...LlmTotals,
      by_purpose: Type.Array(Type.Object({ purpose: Type.String(), ...LlmTotals })),
    },
    {
      description:
        "what the run's language-model calls cost, in all and per purpose (analysis, translation, report...)",
    },
  ),
});
const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };

/** Runs of every kind (docs/decisions/0051-runs-as-records.md): history, progress and the items that failed. */
export const runsRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/admin/runs',
      {
        ...admin,
        schema: {
          tags: ['jobs'],
          summary: 'Runs of every kind, newest first',
          ...sec,
          querystring: Obj({
            kind: Type.Optional(literals(RUN_KINDS)),
            status: Type.Optional(literals(RUN_STATUSES)),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
            offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
          }),
          response: {
            200: Type.Object({
              items: Type.Array(RunSummary),
              total: Type.Integer(),
              limit: Type.Integer(),
              offset: Type.Integer(),
            }),
            ...errors(401, 403, 422),
          },
        },
      },
      async (req) => services.runs.list(req.query),
    );
    app.get(
      '/admin/runs/:id',
      {
        ...admin,
        schema: {
          tags: ['jobs'],
          summary: 'One run with its progress, summary and the items that failed',
          ...sec,
          params: IdParams,
          response: { 200: Run, ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => services.runs.get(req.params.id),
    );
  };
