/**
 * One article's way from stored item to listed, top-down: extract its text and language, analyse
 * it (summary and suggested tags), link its tags, then translate it; a step that fails leaves the
 * failure status of that step instead. Each step is named after its pipeline event and the wiring
 * runs it in the span of that name (`article.processed` in `article.processed.handle`).
 *
 * The flow runs as the article's durable job, which may run again (a retry, a crash, a hand-back at
 * SIGTERM): each step reads the stored status first and skips what is already done. The final
 * write also counts the article as done in its run (ArticleStore.update): the write that leaves the
 * run with nothing pending answers `runEnded`, and the job then ends the run.
 *
 * One write an article where it can be: the analysis is written at once only when another model
 * call follows (a translation the analysis answer did not carry), so that a retry never pays for
 * the analysis twice. Otherwise it is held and written with the final status. When a later step
 * fails, or the final write does, the analysis is written alone first (status `analyzed`), so a
 * failed or retried article keeps it as before; an analysis the database refuses even alone fails
 * the article at its analysis (`analysis_failed`, the tags this flow linked taken off again). Only
 * a crash between the answer and the final write (the tagging step's time) loses it, and the retry
 * then asks again.
 */
import {
  FAILURE_STATUS,
  canMove,
  type ArticleFailureStage,
  type FinalArticleStatus,
} from '../../domain/article-status.js';
import type { ArticleTagger } from '../shared/tagging.js';
import type { Logger } from '../shared/ports.js';
import { addUsage, translateToZhTw, type LlmUsage } from './analysis.js';
import { detectLanguage } from '../shared/text/plain-text.js';
import type { ArticleFailure, ArticleRef, ArticleScrapedEvent } from './pipeline.events.js';
import type { ArticlePatch, ArticleStore, ArticleWrite, PipelineArticle } from './pipeline.ports.js';
import type { RunModels } from './run-models.js';
import { htmlToText } from '../shared/text/html-to-text.js';

/** The stored article with its job's run: what the steps read and keep current. */
export interface WorkingArticle extends PipelineArticle {
  ref: ArticleRef;
  /**
   * The analysis, when it is held for the flow's final write instead of written at once (no model
   * call is left to make for the article, so the one write that completes it carries the analysis
   * too). The working copy shows it once it is written.
   */
  held?: ArticlePatch;
  /** the tags this flow linked */
  linkedTagIds?: string[];
}

/**
 * The held analysis could not be written, alone either: the article fails at its analysis, as it
 * would have had the analysis been written at once.
 */
export class AnalysisNotStoredError extends Error {
  constructor(readonly error: Error) {
    super(error.message, { cause: error });
    this.name = 'AnalysisNotStoredError';
  }
}

/** The steps of an article, by the domain event that names each (docs/architecture.md, the article flow). */
export interface ArticleSteps {
  /** text and language (kept in memory, stored with the analysis) */
  'article.scraped'(a: WorkingArticle): Promise<void>;
  /** summary and suggested tags by the run's model or the built-in analyzer */
  'article.processed'(a: WorkingArticle): Promise<string[]>;
  /** the topic's tags: exact match, else a similar tag, else a normalization suggestion */
  'article.tag_normalization'(a: WorkingArticle, tags: string[]): Promise<string[]>;
  'article.analysis_completed'(a: WorkingArticle, tagIds: string[]): Promise<void>;
  /** title and summary to zh-TW when the run has a model; the article's final write */
  'article.translate'(a: WorkingArticle): Promise<ArticleWrite>;
  'article.analysis_failed'(a: WorkingArticle, f: ArticleFailure): Promise<ArticleWrite>;
  'article.tag_normalization_failed'(a: WorkingArticle, f: ArticleFailure): Promise<ArticleWrite>;
  'article.translation_failed'(a: WorkingArticle, f: ArticleFailure): Promise<ArticleWrite>;
}

export type FailureStep =
  'article.analysis_failed' | 'article.tag_normalization_failed' | 'article.translation_failed';
export const FAILURE_STEPS: readonly FailureStep[] = [
  'article.analysis_failed',
  'article.tag_normalization_failed',
  'article.translation_failed',
];

/** the step that fails at each stage, and the failure step it leads to */
const STEPS_OF: Record<ArticleFailureStage, [keyof ArticleSteps, FailureStep]> = {
  processing: ['article.scraped', 'article.analysis_failed'],
  analysis: ['article.processed', 'article.analysis_failed'],
  tag_normalization: ['article.tag_normalization', 'article.tag_normalization_failed'],
  translation: ['article.translate', 'article.translation_failed'],
};

export interface FlowOutcome {
  /** the step that failed for good (the article has its failure status), if any */
  failure: ArticleFailure | null;
  /** this article was the last pending one of its run */
  runEnded: boolean;
}

/** Runs one article's steps; answers how it ended, or throws RetryableStepError. */
export type ArticleFlow = (
  ref: ArticleScrapedEvent,
  article: PipelineArticle,
  opts: { retryable(err: Error): boolean },
) => Promise<FlowOutcome>;

/** A step failed in a way that may pass later: the job is tried again from the stored status. */
export class RetryableStepError extends Error {
  constructor(
    readonly step: string,
    readonly error: Error,
  ) {
    super(error.message, { cause: error });
    this.name = 'RetryableStepError';
  }
}

/**
 * `published` hears of each article whose processing completed, after its final write (the
 * webhooks' `article.published`); it never throws and only enqueues.
 */
export function articleFlow(
  steps: ArticleSteps,
  log: Logger,
  published?: (articleId: string) => Promise<void>,
): ArticleFlow {
  return async (job, stored, opts) => {
    const { traceparent: _, ...ref } = job;
    const a: WorkingArticle = { ...stored, ref };
    let stage: ArticleFailureStage = 'processing';
    try {
      await steps['article.scraped'](a);
      stage = 'analysis';
      const tags = await steps['article.processed'](a);
      stage = 'tag_normalization';
      const tagIds = await steps['article.tag_normalization'](a, tags);
      await steps['article.analysis_completed'](a, tagIds);
      stage = 'translation';
      const written = await steps['article.translate'](a);
      await published?.(a.id);
      return { failure: null, runEnded: written.runEnded };
    } catch (e) {
      let err = e instanceof Error ? e : new Error(String(e));
      if (err instanceof AnalysisNotStoredError) {
        stage = 'analysis';
        err = err.error;
      }
      const retry = opts.retryable(err);
      const [step, failureStep] = STEPS_OF[stage];
      log.warn({
        event: 'pipeline.handler.failed',
        handler: `${step}.handle`,
        run_id: ref.runId,
        article_id: ref.articleId,
        error: err.message,
        ...(retry ? { retrying: true } : {}),
      });
      if (retry) throw new RetryableStepError(step, err);
      const failure: ArticleFailure = { ...ref, stage, error: err.message };
      const written = await steps[failureStep](a, failure);
      return { failure, runEnded: written.runEnded };
    }
  };
}

export interface StepDeps {
  articles: Pick<ArticleStore, 'update'>;
  tagger: ArticleTagger;
  models: RunModels;
  logger: Logger;
}

/** what the model's calls for this article have cost so far (kept in its metadata) */
const usageOf = (a: WorkingArticle): LlmUsage | undefined => {
  const u = a.metadata.llm_usage as Partial<LlmUsage> | undefined;
  return u && typeof u.calls === 'number' ? (u as LlmUsage) : undefined;
};

/** the held analysis and the final patch as one write (the final patch's fields win; maps merge) */
function joined(held: ArticlePatch, patch: ArticlePatch): ArticlePatch {
  return {
    ...held,
    ...patch,
    ...(held.translations || patch.translations
      ? { translations: { ...held.translations, ...patch.translations } }
      : {}),
    ...(held.metadata || patch.metadata ? { metadata: { ...held.metadata, ...patch.metadata } } : {}),
  };
}

export function articleSteps(d: StepDeps): ArticleSteps {
  const log = d.logger;
  const ids = (a: WorkingArticle) => ({ run_id: a.ref.runId, article_id: a.id });
  /** keeps the patch in the working copy (a status only by an allowed move) */
  const apply = (a: WorkingArticle, patch: ArticlePatch) => {
    const to = patch.processingStatus;
    if (to && !canMove(a.processingStatus, to))
      throw new Error(`article ${a.id} cannot move from ${a.processingStatus} to ${to}`);
    if (patch.content !== undefined) a.content = patch.content;
    if (patch.language !== undefined) a.language = patch.language;
    if (patch.summary !== undefined) a.summary = patch.summary;
    if (patch.metadata) a.metadata = { ...a.metadata, ...patch.metadata };
    if (patch.translations) a.translations = { ...a.translations, ...patch.translations };
    if (to) a.processingStatus = to;
  };
  /**
   * Writes the patch, and keeps the working copy current. With a held analysis, both in one write;
   * when that fails, the analysis alone (keepHeld) before the error goes on.
   */
  const save = async (a: WorkingArticle, patch: ArticlePatch): Promise<ArticleWrite> => {
    const held = a.held;
    const from = held?.processingStatus ?? a.processingStatus;
    const to = patch.processingStatus;
    if (to && !canMove(from, to)) throw new Error(`article ${a.id} cannot move from ${from} to ${to}`);
    if (!held) {
      const written = await d.articles.update(a.id, patch);
      apply(a, patch);
      return written;
    }
    let written: ArticleWrite;
    try {
      written = await d.articles.update(a.id, joined(held, patch));
    } catch (err) {
      await keepHeld(a, err as Error);
      throw err;
    }
    a.held = undefined;
    apply(a, held);
    apply(a, patch);
    return written;
  };
  /**
   * Writes the held analysis alone, after `cause` stopped the flow. When the database refuses it
   * too, the article fails at its analysis: AnalysisNotStoredError (with `cause`, whose kind
   * decides whether the job is tried again).
   */
  const keepHeld = async (a: WorkingArticle, cause: Error): Promise<void> => {
    const held = a.held;
    if (!held) return;
    a.held = undefined;
    try {
      await d.articles.update(a.id, held);
    } catch (err) {
      log.warn({ event: 'article.analysis.not_stored', ...ids(a), error: (err as Error).message });
      throw new AnalysisNotStoredError(cause);
    }
    apply(a, held);
  };
  const failed =
    (stage: ArticleFailureStage) =>
    async (a: WorkingArticle, f: ArticleFailure): Promise<ArticleWrite> => {
      log.error({
        event: `article.${f.stage}.failed`,
        ...ids(a),
        stage: f.stage,
        error: f.error,
        url: a.url,
      });
      // an analysis still held (the step that failed was not one that writes it first) is written
      // before the failure, never with it: a value the database refused in it would refuse the
      // failure too; refused alone, the article fails at its analysis
      let at = stage;
      if (a.held)
        try {
          await keepHeld(a, new Error(f.error));
        } catch {
          at = 'analysis';
        }
      // an analysis the database refused: the tags linked from it go too
      if (at === 'analysis' && a.linkedTagIds?.length) {
        await d.tagger.untagArticle(a.id, a.linkedTagIds);
        a.linkedTagIds = undefined;
      }
      const status: FinalArticleStatus = FAILURE_STATUS[at];
      // the extracted text and language were kept in memory until now: stored with the failure
      return save(a, {
        processingStatus: status,
        // a database error quotes the refused value: a NUL in it would refuse this write too
        processingError: f.error.replaceAll('\u0000', ''),
        // which step failed (the run's counts tell processing from analysis failures)
        metadata: { failed_stage: at },
        content: a.content,
        language: a.language,
      });
    };

  return {
    async 'article.scraped'(a) {
      // text and language were stored with the analysis of an earlier attempt
      if (a.processingStatus !== 'new') return;
      const started = Date.now();
      const text = htmlToText(a.content ?? String(a.metadata.feed_summary ?? ''));
      a.content = text || null;
      a.language = detectLanguage(`${a.title} ${text}`);
      log.debug({
        event: 'article.processing.completed',
        ...ids(a),
        stage: 'processing',
        duration_ms: Date.now() - started,
      });
    },

    async 'article.processed'(a) {
      if (a.processingStatus === 'analyzed') {
        // analysed by an earlier attempt: its summary and suggested tags are stored
        const stored = a.metadata.suggested_tags;
        return Array.isArray(stored) ? stored.filter((t): t is string => typeof t === 'string') : [];
      }
      const started = Date.now();
      const { analyzer, model } = await d.models.forRun(a.ref.runId);
      const analysis = await analyzer.analyze({
        articleId: a.id,
        runId: a.ref.runId,
        title: a.title,
        text: a.content ?? '',
        language: a.language ?? 'en',
      });
      const patch: ArticlePatch = {
        content: a.content,
        summary: analysis.summary,
        language: analysis.language,
        processingStatus: 'analyzed',
        // the zh-TW title and summary of the same answer: the translate step then makes no call
        ...(analysis.translation ? { translations: { 'zh-TW': analysis.translation } } : {}),
        metadata: {
          analyzer: analyzer.name,
          suggested_tags: analysis.tags,
          ...(analysis.usage ? { llm_usage: addUsage(usageOf(a), analysis.usage) } : {}),
        },
      };
      // a translation call follows: written now; else held for the final write
      if (model && !analysis.translation) await save(a, patch);
      else a.held = patch;
      log.info({
        event: 'article.analysis.summarized',
        ...ids(a),
        stage: 'analysis',
        analyzer: analyzer.name,
        tags: analysis.tags.length,
        duration_ms: Date.now() - started,
      });
      return analysis.tags;
    },

    async 'article.tag_normalization'(a, tags) {
      const started = Date.now();
      let result: Awaited<ReturnType<ArticleTagger['tagArticle']>>;
      try {
        result = tags.length
          ? await d.tagger.tagArticle({ topicId: a.topicId, articleId: a.id, names: tags })
          : { tagIds: [], createdTags: [], suggestions: 0 };
      } catch (err) {
        // the analysis is kept whatever comes next: a retry starts from it, a failure is written over it
        await keepHeld(a, err as Error);
        throw err;
      }
      a.linkedTagIds = result.tagIds;
      log.info({
        event: 'article.tag_normalization.completed',
        ...ids(a),
        stage: 'tag_normalization',
        tags: result.tagIds.length,
        created_tags: result.createdTags.length,
        suggestions: result.suggestions,
        duration_ms: Date.now() - started,
      });
      return result.tagIds;
    },

    async 'article.analysis_completed'(a, tagIds) {
      // the status is written with the translation, the flow's last step
      log.info({ event: 'article.analysis.completed', ...ids(a), stage: 'analysis', tags: tagIds.length });
    },

    async 'article.translate'(a) {
      const { model } = await d.models.forRun(a.ref.runId);
      // no model, or the analysis answer carried the translation: nothing to ask
      if (!model || a.translations?.['zh-TW'] || a.held?.translations?.['zh-TW'])
        return save(a, { processingStatus: 'completed', processingError: null });
      const started = Date.now();
      const { translation, usage } = await translateToZhTw(
        model,
        log,
        { articleId: a.id, runId: a.ref.runId },
        a.title,
        a.summary,
      );
      const written = await save(a, {
        translations: { 'zh-TW': translation },
        processingStatus: 'completed',
        processingError: null,
        metadata: { llm_usage: addUsage(usageOf(a), usage) },
      });
      log.info({
        event: 'article.translation.completed',
        ...ids(a),
        stage: 'translation',
        locale: 'zh-TW',
        duration_ms: Date.now() - started,
      });
      return written;
    },

    'article.analysis_failed': (a, f) => failed(f.stage)(a, f),
    'article.tag_normalization_failed': failed('tag_normalization'),
    'article.translation_failed': failed('translation'),
  };
}
