import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Nullable, Obj, Uuid, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';
import { adminCrud } from './admin-crud.js';
import { tagCurationRoutes } from './tag-curation.routes.js';

const ColorHex = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '7-character hex, e.g. #1a2b3c' });
const Name = Type.String({ minLength: 1, maxLength: 120 });

const TagOut = Type.Object({
  id: Uuid(),
  name: Type.String(),
  tag_group_id: Nullable(Uuid()),
  article_count: Type.Integer(),
});
const SimilarGroup = Type.Object({
  id: Uuid(),
  name: Type.String(),
  display_name: Type.String(),
  similarity: Type.Number(),
});
const TagGroupOut = Type.Object({
  id: Nullable(Uuid({ description: 'null for the virtual Ungrouped group' })),
  topic_id: Uuid(),
  name: Type.String(),
  display_name: Type.String(),
  description: Nullable(Type.String()),
  color_hex: Nullable(Type.String()),
  sort_order: Type.Integer(),
  tags: Type.Array(TagOut),
  tag_count: Type.Optional(
    Type.Integer({ description: 'only with include_tags=false: the number of tags of the group' }),
  ),
  similar_groups: Type.Optional(Type.Array(SimilarGroup)),
});
const SuggestionSide = Type.Object({
  id: Nullable(Uuid()),
  name: Type.String(),
  group: Nullable(Type.String({ description: 'display name of the tag group, null when ungrouped' })),
});
const SuggestionOut = Type.Object({
  id: Uuid(),
  new_tag: SuggestionSide,
  existing_tag: SuggestionSide,
  similarity_score: Type.Number(),
  article_id: Nullable(Uuid()),
  created_at: Type.String({ format: 'date-time' }),
});
const ResolutionOut = Type.Object({
  id: Uuid(),
  status: Type.Union([Type.Literal('approved'), Type.Literal('rejected')]),
  resolved_by: Uuid(),
  resolved_at: Type.String({ format: 'date-time' }),
});
const ResolveBody = Obj({ resolved_by: Uuid({ description: 'UUID of the admin resolving it' }) });

const groupFields = {
  name: Name,
  display_name: Name,
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  color_hex: Type.Optional(Nullable(ColorHex)),
};
const admin = { preHandler: requireAdmin };
const sec = { security: [{ bearer: [] }] };
const tagsTag = ['tags'];

export const tagRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const groups = services.tagGroups;
    const tags = services.tags;
    await app.register(tagCurationRoutes(services));

    app.get(
      '/tag-groups',
      {
        schema: {
          tags: tagsTag,
          summary: 'Tag groups of a topic, with the virtual Ungrouped group (id null) last',
          querystring: Obj({
            topic_id: Uuid(),
            include_similar: Type.Optional(
              Type.Boolean({ description: 'add similar_groups: groups with cosine similarity >= 0.90' }),
            ),
            include_tags: Type.Optional(
              Type.Boolean({
                description:
                  'false: leave tags[] empty and give tag_count (default true: tags included, no tag_count)',
              }),
            ),
          }),
          response: { 200: Type.Array(TagGroupOut), ...errors(404, 422) },
        },
      },
      async (req) =>
        groups.list(req.query.topic_id, req.query.include_similar ?? false, req.query.include_tags ?? true),
    );
    app.get(
      '/tag-groups/:id',
      {
        schema: { tags: tagsTag, params: IdParams, response: { 200: TagGroupOut, ...errors(404, 422) } },
      },
      async (req) => groups.get(req.params.id),
    );
    app.post(
      '/tag-groups/merge',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary: 'Merge the source group into the target (or a new group); same-name tags de-duplicated',
          body: Obj({
            source_group_id: Uuid(),
            target_group_id: Type.Optional(Uuid()),
            result_name: Type.Optional(Name),
            result_display_name: Type.Optional(Name),
            result_color: Type.Optional(Nullable(ColorHex)),
          }),
          response: { 200: TagGroupOut, ...errors(401, 403, 404, 409, 422, 502) },
        },
      },
      async (req) => groups.merge(req.body),
    );
    app.post(
      '/tag-groups/reorder',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          body: Obj({
            groups: Type.Array(
              Obj({ id: Uuid(), sort_order: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }) }),
              {
                maxItems: 1000,
              },
            ),
          }),
          response: { 200: Type.Object({ updated: Type.Integer() }), ...errors(401, 403, 404, 422) },
        },
      },
      async (req) => groups.reorder(req.body.groups),
    );
    adminCrud(app, {
      path: '/tag-groups',
      tags: tagsTag,
      create: {
        summary: 'Create a tag group (name slugified, display_name title-cased, embedding generated)',
        fields: { ...groupFields, topic_id: Uuid() },
        out: TagGroupOut,
        errors: [404, 409, 502],
        run: (body) => groups.create(body),
      },
      update: {
        method: 'put',
        fields: groupFields,
        out: TagGroupOut,
        errors: [404, 409, 502],
        run: (id, body) => groups.update(id, body),
      },
      remove: { summary: 'Delete a tag group; its tags become ungrouped', run: (id) => groups.delete(id) },
    });

    adminCrud(app, {
      path: '/tags',
      tags: tagsTag,
      update: {
        method: 'put',
        fields: { name: Name, tag_group_id: Nullable(Uuid({ description: 'null = ungrouped' })) },
        out: TagOut,
        errors: [404, 409, 502],
        run: (id, body) => tags.update(id, body),
      },
      remove: { summary: 'Delete a tag and its article links', run: (id) => tags.delete(id) },
    });
    app.post(
      '/tags/batch-move',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          body: Obj({
            tag_ids: Type.Array(Uuid(), { minItems: 1, maxItems: 1000 }),
            tag_group_id: Nullable(Uuid()),
          }),
          response: { 200: Type.Object({ moved: Type.Integer() }), ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req) => tags.batchMove(req.body),
    );

    app.get(
      '/tag-normalization-suggestions',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary: 'Pending normalization suggestions, oldest first',
          querystring: Obj({ topic_id: Type.Optional(Uuid({ description: 'only this topic' })) }),
          response: { 200: Type.Array(SuggestionOut), ...errors(401, 403, 422) },
        },
      },
      async (req) => tags.listPendingSuggestions(req.query.topic_id),
    );
    app.post(
      '/tag-normalization-suggestions/:id/approve',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary: 'Merge the new tag into the existing one (links re-pointed, new tag deleted)',
          params: IdParams,
          body: ResolveBody,
          response: { 200: ResolutionOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req) => tags.approve(req.params.id, req.body.resolved_by),
    );
    app.post(
      '/tag-normalization-suggestions/:id/reject',
      {
        ...admin,
        schema: {
          tags: tagsTag,
          ...sec,
          summary: 'Keep both tags; the pair is never suggested again',
          params: IdParams,
          body: ResolveBody,
          response: { 200: ResolutionOut, ...errors(401, 403, 404, 409, 422) },
        },
      },
      async (req) => tags.reject(req.params.id, req.body.resolved_by),
    );
  };
