import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import { notFound } from '../../domain/errors.js';
import type { Services } from '../services.js';

const ArticleSourceOut = Type.Object({
  id: Uuid(),
  title: Type.String(),
  url: Type.String(),
  public_article_id: Uuid(),
  coverage: Type.Integer({
    minimum: 0,
    description: 'articles covering the work the source belongs to (its coverage_count); 0 when none',
  }),
});
const Support = Type.Union([Type.Literal('supported'), Type.Literal('partial'), Type.Literal('unsupported')]);
const GroundingOut = Type.Object(
  {
    score: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'share of the cited sentences their sources support (partial counts half)',
    }),
    method: Type.Union([Type.Literal('model'), Type.Literal('local')], {
      description:
        'local: figures, names and key terms of each sentence found in its source; model: that, ' +
        'then each sentence judged by the language model with a quote found in its source',
    }),
    checked_at: DateTime(),
    sentences: Type.Array(
      Type.Object({
        index: Type.Integer({ description: 'position of the sentence in the original summary_text' }),
        text: Type.String(),
        citations: Type.Array(Type.Integer()),
        support: Support,
        evidence: Type.Array(
          Type.Object({
            n: Type.Integer(),
            quote: Type.String({ description: 'the shortest passage of source n that supports it' }),
          }),
        ),
        revised_from: Type.Optional(
          Type.String({
            description: 'the sentence as first written, when it was revised with the evidence',
          }),
        ),
      }),
    ),
    removed: Type.Array(
      Type.Object({
        text: Type.String(),
        reason: Type.Union([
          Type.Literal('citation_out_of_range'),
          Type.Literal('figure_not_in_source'),
          Type.Literal('not_in_source'),
          Type.Literal('unsupported_by_model'),
          Type.Literal('quote_not_in_source'),
        ]),
        revised: Type.Optional(
          Type.String({ description: "the model's revision with the evidence, which failed the check too" }),
        ),
      }),
      { description: 'sentences dropped because no source supports them' },
    ),
  },
  { title: 'ReportGrounding' },
);
const WeeklyReportOut = Type.Object(
  {
    id: Uuid(),
    topic_id: Uuid(),
    week_start_date: Type.String({ format: 'date' }),
    title: Type.String(),
    summary_text: Type.String({ description: 'Markdown with inline [N] citations; N indexes sources' }),
    cover_image_url: Nullable(Type.String()),
    article_count: Type.Integer(),
    status: Type.String(),
    method: Type.Union([Type.Literal('model'), Type.Literal('extractive')], {
      description:
        'how the report was written: model (a language model) or extractive (without one: each ' +
        "cited article's own best sentence, quoted)",
    }),
    created_at: DateTime(),
    grounding: Nullable(GroundingOut),
    sources: Type.Array(ArticleSourceOut),
  },
  { title: 'WeeklyReportOut' },
);
const Locale = Type.Optional(
  Type.Union([Type.Literal('en'), Type.Literal('zh-TW')], {
    description: 'zh-TW returns the translated title and summary when one exists',
  }),
);
const WeekStart = Type.String({ format: 'date', description: 'YYYY-MM-DD; any day of the week' });

export const reportsRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const r = services.reports;
    // inline, not app.addSchema: a schema added inside this plugin would give it Fastify's default
    // validator (which strips unknown fields) instead of the app's strict one
    const Out = WeeklyReportOut;

    app.get(
      '/weekly-reports',
      {
        schema: {
          tags: ['weekly-reports'],
          summary: 'Weekly reports of a topic, newest week first',
          querystring: Obj({
            topic_id: Uuid(),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
            offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
            locale: Locale,
          }),
          response: {
            200: Type.Object({
              items: Type.Array(Out),
              total: Type.Integer(),
              limit: Type.Integer(),
              offset: Type.Integer(),
            }),
            ...errors(422),
          },
        },
      },
      async (req) => r.list({ topicId: req.query.topic_id, ...req.query }),
    );

    app.get(
      '/weekly-reports/latest',
      {
        schema: {
          tags: ['weekly-reports'],
          summary: 'The most recent completed report of a topic, or null',
          querystring: Obj({ topic_id: Uuid(), locale: Locale }),
          response: { 200: Nullable(Out), ...errors(422) },
        },
      },
      async (req, reply) =>
        reply.send(await r.latest({ topicId: req.query.topic_id, locale: req.query.locale })),
    );

    app.get(
      '/weekly-reports/schedule',
      {
        schema: {
          tags: ['weekly-reports'],
          summary: 'When the next weekly report is due',
          description:
            'The next tick of the weekly report schedule (WEEKLY_REPORT_CRON, in the time zone of ' +
            'the service), or nulls when this site writes reports only on demand ' +
            '(SCHEDULER_ENABLED=false). A week without articles of a topic gets no report.',
          response: {
            200: Type.Object(
              {
                next_due_at: Nullable(DateTime()),
                cron: Nullable(Type.String({ description: 'the schedule followed' })),
              },
              { title: 'ReportSchedule' },
            ),
          },
        },
      },
      async () => r.schedule(),
    );

    app.get(
      '/weekly-reports/by-week',
      {
        schema: {
          tags: ['weekly-reports'],
          summary: 'The report of one topic and week',
          querystring: Obj({ topic_id: Uuid(), week_start: WeekStart, locale: Locale }),
          response: { 200: Out, ...errors(404, 422) },
        },
      },
      async (req) =>
        r.byWeek({ topicId: req.query.topic_id, weekStart: req.query.week_start, locale: req.query.locale }),
    );

    app.post(
      '/admin/jobs/weekly-reports',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['jobs'],
          summary: 'Start the weekly report job as a run (idempotent per topic and week)',
          description:
            'Without topic_id: every active topic with articles in the week. Without week_start: the ' +
            'last full week. Without an active language-model provider the reports are extractive ' +
            'digests. Answers the run id at once (GET /admin/runs/{id}); 404 for an unknown topic, ' +
            '409 while a report run is under way.',
          security: [{ bearer: [] }],
          body: Obj({ topic_id: Type.Optional(Uuid()), week_start: Type.Optional(WeekStart) }),
          response: { 202: Obj({ run_id: Uuid() }), ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req, reply) =>
        reply.status(202).send(
          await services.jobs.startWeeklyReports({
            topicId: req.body?.topic_id,
            weekStart: req.body?.week_start,
          }),
        ),
    );
  };

/** Public files (report covers) at /media/<key>; any origin may embed them (mail clients). */
export const mediaRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/media/*',
      {
        schema: {
          tags: ['media'],
          summary: 'A stored public file, e.g. a report cover',
          params: Obj({ '*': Type.String({ maxLength: 512 }) }),
          response: { 200: Type.Unknown(), ...errors(404) },
        },
      },
      async (req, reply) => {
        const file = await services.reports.mediaFile(req.params['*']);
        if (!file) throw notFound('file', 'media_not_found');
        return reply
          .header('content-type', file.contentType)
          .header('cache-control', 'public, max-age=86400')
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(file.data);
      },
    );
  };
