import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Nullable, Obj, errors } from '../schemas/common.js';
import { requireAdmin } from '../plugins/auth.js';
import type { Services } from '../services.js';

/** the largest OPML file accepted (413 above it); the web role's body limit is the same */
export const OPML_MAX_BYTES = 1024 * 1024;
/** what an export is served as: the de facto OPML type that feed readers' importers recognise */
const OPML_TYPE = 'text/x-opml; charset=utf-8';
/** the media types an import body may carry (the file's bytes, not a form) */
const OPML_BODY_TYPES = ['text/x-opml', 'application/xml', 'text/xml', 'application/octet-stream'];

const SourceKind = Type.Union([Type.Literal('rss'), Type.Literal('arxiv')]);
const ImportResult = Type.Object({
  dry_run: Type.Boolean(),
  title: Nullable(Type.String({ description: "the file's head title" })),
  default_topic: Type.String({ description: 'the topic of feeds outside any folder' }),
  topics: Type.Array(
    Type.Object({
      name: Type.String(),
      action: Type.Union([Type.Literal('create'), Type.Literal('existing')]),
      sources: Type.Integer({ minimum: 0, description: 'sources the import adds to it' }),
    }),
  ),
  sources: Type.Array(
    Type.Object({
      topic: Type.String(),
      name: Type.String(),
      url: Type.String(),
      kind: SourceKind,
      enabled: Type.Boolean(),
    }),
    { description: 'sources to create (dry run) or created' },
  ),
  duplicates: Type.Array(
    Type.Object({
      topic: Type.String(),
      name: Type.String(),
      url: Type.String(),
      reason: Type.Union([Type.Literal('in_catalog'), Type.Literal('in_file')]),
      existing_topic: Type.String({ description: 'the topic that already holds the URL' }),
    }),
  ),
  invalid: Type.Array(
    Type.Object({
      folder: Nullable(Type.String()),
      text: Type.String(),
      url: Nullable(Type.String()),
      reason: Type.Union([
        Type.Literal('missing_url'),
        Type.Literal('bad_url'),
        Type.Literal('not_http'),
        Type.Literal('url_too_long'),
        Type.Literal('control_characters'),
        Type.Literal('unsupported_type'),
        Type.Literal('empty_outline'),
        Type.Literal('folder_name'),
      ]),
    }),
  ),
  refused: Type.Array(
    Type.Object({
      topic: Type.String(),
      name: Type.String(),
      url: Type.String(),
      host: Type.String({ description: 'the host to name in allow_hosts to import it anyway' }),
      reason: Type.String({ description: 'why the outbound rules refuse it (its address range)' }),
    }),
    {
      description:
        'feeds on a loopback, private, link-local or metadata address (the rules of item links, ' +
        'FETCH_ALLOWED_HOSTS), left out unless their host is in allow_hosts',
    },
  ),
  created: Type.Object({ topics: Type.Integer({ minimum: 0 }), sources: Type.Integer({ minimum: 0 }) }),
});

const sec = { security: [{ bearer: [] }] };

/** OPML 2.0 export and import of topics and sources (admin). */
export const opmlRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    // this scope reads bodies as the file's bytes: JSON or a form here is 415
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      OPML_BODY_TYPES,
      { parseAs: 'buffer', bodyLimit: OPML_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );

    app.get(
      '/admin/sources.opml',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin'],
          ...sec,
          summary: 'Every topic (a folder) with its sources as an OPML 2.0 file',
          response: {
            200: { content: { 'text/x-opml': { schema: Type.String({ description: 'OPML 2.0' }) } } },
            ...errors(401, 403),
          },
        },
      },
      async (_req, reply) => {
        const { filename, xml } = await services.opml.exportOpml();
        return reply
          .type(OPML_TYPE)
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'no-store')
          .send(xml);
      },
    );

    app.post(
      '/admin/sources/opml',
      {
        preHandler: requireAdmin,
        schema: {
          tags: ['admin'],
          ...sec,
          summary: 'Import an OPML file: topics from folders, sources from feed outlines',
          description:
            'The body is the file itself (Content-Type text/x-opml, application/xml, text/xml or ' +
            'application/octet-stream; at most 1 MiB, 413 above). `dry_run=true` answers the plan ' +
            'and writes nothing; otherwise the same plan is applied in one transaction.',
          querystring: Obj({
            dry_run: Type.Optional(Type.Boolean({ default: false })),
            default_topic: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 120,
                description: 'the topic of feeds outside any folder (default "Imported")',
              }),
            ),
            allow_hosts: Type.Optional(
              Type.String({
                maxLength: 2000,
                description:
                  'comma-separated hosts whose feeds are imported although the outbound rules refuse ' +
                  'their address (an intranet feed the admin vouches for)',
              }),
            ),
          }),
          body: {
            content: Object.fromEntries(
              OPML_BODY_TYPES.map((t) => [
                t,
                { schema: { description: 'an OPML 1.0/2.0 document', format: 'binary' } },
              ]),
            ),
          },
          response: { 200: ImportResult, ...errors(401, 403, 409, 413, 415, 422) },
        },
      },
      async (req) =>
        services.opml.importOpml(req.body as Buffer | undefined, {
          dryRun: req.query.dry_run ?? false,
          defaultTopic: req.query.default_topic,
          contentType: req.headers['content-type'],
          allowHosts: req.query.allow_hosts?.split(',').filter((h) => h.trim()),
        }),
    );
  };
