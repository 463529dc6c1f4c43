import { Type, type TSchema } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

const TagRow = Type.Object({
  id: Uuid(),
  topic_id: Uuid(),
  name: Type.String(),
  tag_group_id: Nullable(Uuid()),
  group_name: Nullable(Type.String({ description: 'display name of the group, null when ungrouped' })),
  group_color: Nullable(Type.String()),
  article_count: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
});
const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  });
const IdList = (description: string) => Type.Array(Uuid(), { minItems: 1, maxItems: 1000, description });
const DryRun = Type.Optional(
  Type.Boolean({ default: false, description: 'true: answer what would change, change nothing' }),
);

const MergeOut = Type.Object({
  dry_run: Type.Boolean(),
  target: TagRow,
  removed: Type.Array(TagRow, { description: 'the tags that disappear' }),
  links_moved: Type.Integer({ description: 'article links re-pointed to the target' }),
  links_dropped: Type.Integer({ description: 'duplicate links dropped (the article had the target)' }),
  target_article_count: Type.Object({ before: Type.Integer(), after: Type.Integer() }),
  already_merged: Type.Array(Uuid(), { description: 'sources merged into this target before' }),
});
const MoveOut = Type.Object({
  dry_run: Type.Boolean(),
  tag_group_id: Nullable(Uuid()),
  moved: Type.Array(TagRow),
  unchanged: Type.Array(TagRow, { description: 'already in that group' }),
  merged: Type.Array(
    Type.Object({
      into: Type.Object({ id: Uuid(), name: Type.String() }),
      removed: Type.Array(TagRow),
      links_moved: Type.Integer(),
      links_dropped: Type.Integer(),
    }),
    { description: 'tags whose name the group already holds, merged into that tag' },
  ),
  already_merged: Type.Array(Uuid()),
});
const Side = Type.Object({
  id: Nullable(Uuid()),
  name: Type.String(),
  group: Nullable(Type.String()),
  article_count: Type.Integer(),
});
const SuggestionDetail = Type.Object({
  id: Uuid(),
  new_tag: Side,
  existing_tag: Side,
  similarity_score: Type.Number({ description: 'cosine similarity of the two names, 0..1' }),
  article_id: Nullable(Uuid()),
  created_at: Type.String({ format: 'date-time' }),
  articles: Type.Array(Type.Object({ id: Uuid(), title: Type.String() }), {
    description: 'the article that raised it, then a few more of the new tag',
  }),
});

const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };
const tagsTag = ['tags'];

/** Tag curation at scale (admin): the tags table, bulk merge and move with a preview, suggestions. */
export const tagCurationRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const curation = services.tagCuration;

    app.get(
      '/admin/tags',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary: 'A page of tags with group, article count and creation time; searchable and sortable',
          querystring: Obj({
            topic_id: Type.Optional(Uuid()),
            q: Type.Optional(
              Type.String({ maxLength: 200, description: 'case-insensitive substring of the name' }),
            ),
            group_id: Type.Optional(
              Type.Union([Uuid(), Type.Literal('ungrouped')], {
                description: 'a group id, or `ungrouped` for the tags without a group',
              }),
            ),
            sort: Type.Optional(
              Type.Union([
                Type.Literal('name'),
                Type.Literal('group'),
                Type.Literal('article_count'),
                Type.Literal('created_at'),
              ]),
            ),
            order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
          }),
          response: { 200: Page(TagRow), ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => curation.table(req.query),
    );
    app.post(
      '/admin/tags/merge',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary: 'Merge tags into one target tag (links de-duplicated, sources deleted); dry_run previews',
          body: Obj({ source_ids: IdList('tags to merge away'), target_id: Uuid(), dry_run: DryRun }),
          response: { 200: MergeOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req) => curation.merge(req.body, principalOf(req).userId),
    );
    app.post(
      '/admin/tags/move',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary:
            'Move tags to a group (null: Ungrouped); same-named tags there absorb them; dry_run previews',
          body: Obj({
            tag_ids: IdList('tags to move'),
            tag_group_id: Nullable(Uuid({ description: 'null = ungrouped' })),
            dry_run: DryRun,
          }),
          response: { 200: MoveOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req) => curation.move(req.body, principalOf(req).userId),
    );
    app.get(
      '/admin/tags/suggestions',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary: 'Pending normalization suggestions with similarity, tag article counts and their articles',
          querystring: Obj({
            topic_id: Type.Optional(Uuid()),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
            offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
          }),
          response: { 200: Page(SuggestionDetail), ...errors(401, 403, 422) },
        },
      },
      async (req) => curation.suggestions(req.query),
    );
  };
