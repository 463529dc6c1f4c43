import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime, NoContent, Obj, Pagination, Uuid, errors } from '../schemas/common.js';
import { principalOf, requireUser } from '../plugins/auth.js';
import { clientGone, streamAnswer, wantsEventStream } from '../ask-stream.js';
import type { Services } from '../services.js';

const CitationOut = Type.Object({
  n: Type.Integer({ description: 'the [n] marker of the answer' }),
  article_id: Uuid(),
  title: Type.String(),
  url: Type.String(),
  quote: Type.String({ description: 'the passage sentence that supports the cited sentence' }),
});
const AnswerGroundingOut = Type.Object(
  {
    score: Type.Number({ minimum: 0, maximum: 1, description: 'share of the cited sentences supported' }),
    method: Type.String({ description: '"local" or "model": how the sentences were checked' }),
    checked_at: DateTime(),
    sentences: Type.Array(
      Type.Object({
        index: Type.Integer(),
        text: Type.String(),
        citations: Type.Array(Type.Integer()),
        support: Type.String({ description: 'supported | partial | unsupported' }),
        evidence: Type.Array(Type.Object({ n: Type.Integer(), quote: Type.String() })),
      }),
    ),
    removed: Type.Array(Type.Object({ text: Type.String(), reason: Type.String() }), {
      description: "the model's sentences dropped because no passage supports them",
    }),
  },
  { title: 'AnswerGrounding' },
);
const Language = Type.Union([Type.Literal('en'), Type.Literal('zh-TW')]);
export const AskAnswerOut = Type.Object(
  {
    answer: Type.String({ description: 'plain text with inline [n] citations; n indexes citations' }),
    language: Language,
    abstained: Type.Boolean({ description: 'nothing retrieved answers the question; answer says so' }),
    method: Type.Union([Type.Literal('model'), Type.Literal('extractive')], {
      description: 'extractive: no language model is configured, the answer quotes the best passages',
    }),
    citations: Type.Array(CitationOut),
    grounding: AnswerGroundingOut,
  },
  { title: 'AskAnswer' },
);
const AskBody = Obj({
  question: Type.String({ maxLength: 4000, 'x-multiline': true, description: '1–500 characters' }),
  topic_id: Type.Optional(Type.String({ description: 'UUID of a topic: only its articles' })),
  since: Type.Optional(Type.String({ description: 'ISO date: only articles dated on or after it' })),
  language: Type.Optional(
    Type.String({ description: '"en" or "zh-TW"; default: the question\'s language (by its script)' }),
  ),
});
const HistoryItemOut = Type.Object({
  id: Uuid(),
  question: Type.String(),
  language: Language,
  answer: Type.String(),
  abstained: Type.Boolean(),
  method: Type.Union([Type.Literal('model'), Type.Literal('extractive')]),
  citations: Type.Array(CitationOut),
  created_at: DateTime(),
});

const user = { preHandler: requireUser };
const sec = { security: [{ bearer: [] }] };

export const askRoutes =
  (services: Services): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ask = services.ask;

    app.post(
      '/ask',
      {
        ...user,
        config: { rateLimit: 'ask', rateLimitPer: 'user' },
        schema: {
          tags: ['ask'],
          ...sec,
          summary: 'Ask the corpus a question; with Accept: text/event-stream the answer is streamed',
          description:
            'Server-sent events: `retrieved` (the numbered passages), `delta` (pieces of the answer, ' +
            'sentences that passed the local check), then `answer` (the whole AskAnswer) or `error` ' +
            '(`{code, message}`). The answer event is authoritative.',
          body: AskBody,
          response: { 200: AskAnswerOut, ...errors(401, 404, 422, 429, 502) },
        },
      },
      async (req, reply) => {
        const userId = principalOf(req).userId;
        // a refused question is an ordinary error response; only an accepted one is streamed
        const prepared = await ask.prepare(userId, req.body);
        if (wantsEventStream(req))
          return streamAnswer(req, reply, (progress, signal) => ask.answer(prepared, progress, signal));
        const gone = clientGone(reply);
        try {
          return await ask.answer(prepared, {}, gone.signal);
        } finally {
          gone.release();
        }
      },
    );

    app.get(
      '/ask/history',
      {
        ...user,
        schema: {
          tags: ['ask'],
          ...sec,
          summary: "The caller's own questions and answers, newest first",
          querystring: Obj(Pagination),
          response: {
            200: Type.Object({
              items: Type.Array(HistoryItemOut),
              total: Type.Integer(),
              limit: Type.Integer(),
              offset: Type.Integer(),
            }),
            ...errors(401, 422),
          },
        },
      },
      async (req) => {
        const page = { limit: req.query.limit ?? 20, offset: req.query.offset ?? 0 };
        const { items, total } = await ask.history(principalOf(req).userId, page);
        return {
          items: items.map((e) => ({
            id: e.id,
            question: e.question,
            language: e.language,
            answer: e.answer,
            abstained: e.abstained,
            method: e.method,
            citations: e.citations,
            created_at: e.createdAt.toISOString(),
          })),
          total,
          ...page,
        };
      },
    );

    app.delete(
      '/ask/history',
      {
        ...user,
        schema: {
          tags: ['ask'],
          ...sec,
          summary: "Clears the caller's questions and answers",
          response: { 204: NoContent, ...errors(401) },
        },
      },
      async (req, reply) => {
        await ask.clearHistory(principalOf(req).userId);
        return reply.status(204).send(null);
      },
    );
  };
