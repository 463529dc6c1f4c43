import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { WorkView } from '../../application/works/works.ports.js';
import { MAX_MERGE } from '../../application/works/works.service.js';
import { IdParams, Obj, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

const NullableString = (opts: { format?: string; description?: string } = {}) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...opts });
const NullableInteger = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], description });

const VersionOut = Type.Object({
  article_id: Uuid(),
  role: Type.Union([
    Type.Literal('preprint'),
    Type.Literal('published'),
    Type.Literal('copy'),
    Type.Literal('coverage'),
  ]),
  source: Type.String(),
  url: Type.String(),
  title: Type.String(),
  published_at: NullableString({ format: 'date-time' }),
});
const WorkOut = Type.Object(
  {
    id: Uuid(),
    title: Type.String({ description: "the best version's title" }),
    doi: NullableString({ description: "the published version's DOI" }),
    arxiv_id: NullableString({ description: "the preprint's arXiv id" }),
    citation_count: NullableInteger("the published version's count, else the preprint's; never a sum"),
    coverage_count: Type.Integer({ description: 'articles of other works linking to or naming this one' }),
    versions: Type.Array(VersionOut, {
      description:
        'published, preprint, copies (oldest first), then up to 100 coverage articles (newest first)',
    }),
  },
  { title: 'WorkOut' },
);
const sec = { security: [{ bearer: [] }] };

const workOut = (w: WorkView) => ({
  id: w.id,
  title: w.title,
  doi: w.doi,
  arxiv_id: w.arxivId,
  citation_count: w.citationCount === null ? null : Math.round(w.citationCount),
  coverage_count: w.coverageCount,
  versions: w.versions.map((v) => ({
    article_id: v.articleId,
    role: v.role,
    source: v.source,
    url: v.url,
    title: v.title,
    published_at: v.publishedAt?.toISOString() ?? null,
  })),
});

/** Works: one paper's versions, one story's copies and their coverage (docs/decisions/0125-works.md). */
export const worksRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/works/:id',
      {
        schema: {
          tags: ['works'],
          summary: 'A work with its versions and coverage; the id of one of its articles also finds it',
          params: IdParams,
          response: { 200: WorkOut, ...errors(404, 422) },
        },
      },
      async (req) => workOut(await services.works.get(req.params.id)),
    );
    app.post(
      '/admin/works/:id/split',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin', 'works'],
          ...sec,
          summary:
            'Move some articles out of a work into a work of their own; later linking keeps them apart',
          params: IdParams,
          body: Obj({ article_ids: Type.Array(Uuid(), { minItems: 1, maxItems: 100, uniqueItems: true }) }),
          response: {
            200: Type.Object({
              work_ids: Type.Array(Uuid(), { description: 'the work that stayed, then the new one' }),
            }),
            ...errors(401, 403, 404, 422),
          },
        },
      },
      async (req) => services.works.split(req.params.id, req.body.article_ids, principalOf(req).userId),
    );
    app.post(
      '/admin/works/merge',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin', 'works'],
          ...sec,
          summary: 'Merge works into the first; later linking keeps them together',
          body: Obj({
            work_ids: Type.Array(Uuid(), { minItems: 2, maxItems: MAX_MERGE, uniqueItems: true }),
          }),
          response: { 200: Type.Object({ work_id: Uuid() }), ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => services.works.merge(req.body.work_ids, principalOf(req).userId),
    );
  };
