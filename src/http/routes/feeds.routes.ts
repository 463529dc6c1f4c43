import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Obj, Uuid, errors } from '../schemas/common.js';
import type { Services } from '../services.js';

const TopicParams = Obj({ topic_id: Uuid() });
const AtomOut = { content: { 'application/atom+xml': { schema: Type.String({ description: 'Atom 1.0' }) } } };
const ATOM = 'application/atom+xml; charset=utf-8';
/** feed readers poll: a short shared cache keeps a popular feed from costing a list query per poll */
const CACHE = 'public, max-age=300';

/** Feeds out (public): a topic's ranked list and its weekly reports as Atom. */
export const feedRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/feeds/topics/:topic_id.atom',
      {
        schema: {
          tags: ['feeds'],
          summary: "The topic's ranked list (50 entries) as Atom",
          params: TopicParams,
          querystring: Obj({
            sort: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'any list sort' })),
            order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          }),
          response: { 200: AtomOut, ...errors(404, 422) },
        },
      },
      async (req, reply) => {
        const xml = await services.feeds.topicFeed(req.params.topic_id, req.query);
        return reply.type(ATOM).header('cache-control', CACHE).send(xml);
      },
    );

    app.get(
      '/feeds/reports/:topic_id.atom',
      {
        schema: {
          tags: ['feeds'],
          summary: "The topic's weekly reports as Atom",
          params: TopicParams,
          response: { 200: AtomOut, ...errors(404, 422) },
        },
      },
      async (req, reply) => {
        const xml = await services.feeds.reportsFeed(req.params.topic_id);
        return reply.type(ATOM).header('cache-control', CACHE).send(xml);
      },
    );
  };
