import {
  ABSTENTION,
  ASK_LANGUAGES,
  QUESTION_MAX_CHARS,
  detectLanguage,
  questionTerms,
  type AskLanguage,
} from '../../domain/ask.js';
import { invalid, notFound } from '../../domain/errors.js';
import type { Grounding } from '../../domain/grounding.js';
import { cleanText, isUuid, oneLine } from '../../domain/text.js';
import type { LanguageModel, LanguageModelFactory } from '../shared/llm.js';
import type { Clock, Logger } from '../shared/ports.js';
import { groundAnswerLocally, hasSupportedClaim, renumberAnswer } from './answer-grounding.js';
import { SentenceStream, answerPrompt, extractiveAnswer, saysNoAnswer } from './ask-answer.js';
import type { AskRetriever, Passage, QuestionTerms } from './ask-retrieval.js';
import type {
  AnswerGrounder,
  AnswerMethod,
  AskAnswer,
  AskCitation,
  AskFilter,
  AskHistory,
  AnsweringProvider,
} from './ask.ports.js';

export interface AskBody {
  question: string;
  topic_id?: string;
  since?: string;
  language?: string;
}

/** A question that passed validation, ready to be answered. */
export interface PreparedQuestion {
  userId: string;
  question: string;
  language: AskLanguage;
  terms: QuestionTerms;
  filter: AskFilter;
}

/** What a streaming caller is told while the answer is made. */
export interface AskProgress {
  retrieved?(passages: { n: number; article_id: string; title: string; url: string }[]): void;
  /** a piece of the answer (sentences that passed the local check, as the model writes them) */
  delta?(text: string): void;
}

/** answers kept per user; older ones go */
export const HISTORY_KEEP = 200;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * POST /ask: hybrid retrieval over the corpus, an answer written only from the retrieved passages
 * (by the language model, else quoted), grounded like a report, kept in the asker's own history.
 */
export class AskService {
  constructor(
    private readonly deps: {
      retriever: AskRetriever;
      providers: AnsweringProvider;
      llm: LanguageModelFactory;
      history: AskHistory;
      clock: Clock;
      logger: Logger;
      /** the local pass unless another is given */
      ground?: AnswerGrounder;
      /** a bound on the model's call */
      modelTimeoutMs?: number;
    },
  ) {}

  /** Validates the body (codes a client can act on) and settles the question's language and terms. */
  async prepare(userId: string, body: AskBody): Promise<PreparedQuestion> {
    // controls out, lone surrogates replaced: nothing of it can stop the history's write
    const question = oneLine(cleanText(typeof body.question === 'string' ? body.question : ''));
    if (!question) throw invalid('question must not be empty', 'question_empty');
    if ([...question].length > QUESTION_MAX_CHARS)
      throw invalid(`question must be at most ${QUESTION_MAX_CHARS} characters`, 'question_too_long');
    const filter: AskFilter = {};
    if (body.topic_id !== undefined) {
      if (!isUuid(body.topic_id)) throw invalid('topic_id must be a UUID', 'invalid_topic_id');
      if (!(await this.deps.providers.topicExists(body.topic_id))) throw notFound('topic', 'topic_not_found');
      filter.topicId = body.topic_id;
    }
    if (body.since !== undefined) {
      const at = ISO_DATE.test(body.since) ? new Date(body.since) : null;
      if (!at || Number.isNaN(at.getTime()))
        throw invalid('since must be an ISO date (YYYY-MM-DD or a date-time)', 'invalid_since');
      filter.since = at;
    }
    let language: AskLanguage;
    if (body.language !== undefined) {
      if (!ASK_LANGUAGES.includes(body.language as AskLanguage))
        throw invalid('language must be "en" or "zh-TW"', 'invalid_language');
      language = body.language as AskLanguage;
    } else language = detectLanguage(question);
    return { userId, question, language, terms: questionTerms(question), filter };
  }

  /** prepare, then answer: the JSON route */
  async ask(userId: string, body: AskBody): Promise<AskAnswer> {
    return this.answer(await this.prepare(userId, body));
  }

  /** Retrieves, writes and grounds the answer; keeps it in the asker's history. */
  async answer(q: PreparedQuestion, progress: AskProgress = {}, signal?: AbortSignal): Promise<AskAnswer> {
    const started = Date.now();
    const { passages } = await this.deps.retriever.retrieve(q.question, q.terms, q.language, q.filter);
    signal?.throwIfAborted();
    progress.retrieved?.(
      passages.map((p) => ({ n: p.n, article_id: p.articleId, title: p.title, url: p.url })),
    );
    const provider = passages.length ? await this.deps.providers.answeringProvider() : null;
    let method: AnswerMethod = provider ? 'model' : 'extractive';
    let draft: string | null = null;
    if (provider) {
      try {
        draft = await this.write(this.deps.llm.forProvider(provider), q, passages, progress, signal);
      } catch (err) {
        if (signal?.aborted) throw err;
        // the reader still gets the passages' best sentences, labelled as quotes
        this.deps.logger.warn({
          event: 'ask.model_failed',
          provider: provider.name,
          error: (err as Error).message,
        });
        method = 'extractive';
      }
    }
    if (method === 'extractive' && passages.length) {
      draft = extractiveAnswer(passages, q.terms, q.language);
      if (draft) progress.delta?.(draft);
    }
    const answer = await this.finish(q, passages, draft, method);
    signal?.throwIfAborted();
    await this.deps.history.add(
      q.userId,
      {
        question: q.question,
        language: answer.language,
        answer: answer.answer,
        abstained: answer.abstained,
        method: answer.method,
        citations: answer.citations,
      },
      HISTORY_KEEP,
    );
    this.deps.logger.info({
      event: 'ask.answered',
      method,
      language: q.language,
      passages: passages.length,
      abstained: answer.abstained,
      citations: answer.citations.length,
      removed_sentences: answer.grounding.removed.length,
      duration_ms: Date.now() - started,
    });
    return answer;
  }

  history(userId: string, page: { limit: number; offset: number }) {
    return this.deps.history.list(userId, page);
  }

  async clearHistory(userId: string): Promise<void> {
    await this.deps.history.clear(userId);
  }

  /** the model's answer, streamed sentence by sentence through the local check; its cost logged */
  private async write(
    model: LanguageModel,
    q: PreparedQuestion,
    passages: Passage[],
    progress: AskProgress,
    signal?: AbortSignal,
  ): Promise<string | null> {
    const stream = progress.delta
      ? new SentenceStream(
          passages.map((p) => p.evidence),
          progress.delta,
          () => this.deps.clock.now(),
        )
      : null;
    const timeout = AbortSignal.timeout(this.deps.modelTimeoutMs ?? 60_000);
    const started = Date.now();
    const res = await model.complete({
      messages: answerPrompt(q.question, q.language, passages),
      temperature: 0.1,
      maxTokens: 600,
      purpose: 'ask',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      ...(stream ? { onDelta: (piece: string) => stream.push(piece) } : {}),
    });
    stream?.end();
    this.deps.logger.info({
      event: 'llm.call.completed',
      purpose: 'ask',
      provider: model.providerName,
      duration_ms: Date.now() - started,
      prompt_tokens: res.usage.promptTokens,
      completion_tokens: res.usage.completionTokens,
      tokens: res.usage.promptTokens + res.usage.completionTokens,
    });
    return saysNoAnswer(res.text) ? null : res.text;
  }

  private async finish(
    q: PreparedQuestion,
    passages: Passage[],
    draft: string | null,
    method: AnswerMethod,
  ): Promise<AskAnswer> {
    const now = this.deps.clock.now();
    const ground = this.deps.ground ?? groundAnswerLocally;
    const abstain = (grounding: Grounding): AskAnswer => ({
      answer: ABSTENTION[q.language],
      language: q.language,
      abstained: true,
      method,
      citations: [],
      grounding,
    });
    const empty: Grounding = {
      score: 0,
      method: 'local',
      checked_at: now.toISOString(),
      sentences: [],
      removed: [],
    };
    if (!draft) return abstain(empty);
    const grounded = await ground(
      draft,
      passages.map((p) => p.evidence),
      now,
    );
    if (!hasSupportedClaim(grounded.grounding)) return abstain(grounded.grounding);
    const { text, grounding, order, cited } = renumberAnswer(
      grounded.text,
      grounded.grounding,
      passages.length,
    );
    const citations: AskCitation[] = order.slice(0, cited).map((i, k) => {
      const p = passages[i]!;
      const quote = grounding.sentences.flatMap((s) => s.evidence).find((e) => e.n === k + 1)?.quote;
      return { n: k + 1, article_id: p.articleId, title: p.title, url: p.url, quote: quote ?? p.text };
    });
    return { answer: text, language: q.language, abstained: false, method, citations, grounding };
  }
}
