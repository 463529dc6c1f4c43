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
      const err = e instanceof Error ? e : new Error(String(e));
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

export function articleSteps(d: StepDeps): ArticleSteps {
  const log = d.logger;
  const ids = (a: WorkingArticle) => ({ run_id: a.ref.runId, article_id: a.id });
  /** writes the patch (a status only by an allowed move) and keeps the working copy current */
  const save = async (a: WorkingArticle, patch: ArticlePatch): Promise<ArticleWrite> => {
    const to = patch.processingStatus;
    if (to && !canMove(a.processingStatus, to))
      throw new Error(`article ${a.id} cannot move from ${a.processingStatus} to ${to}`);
    const written = await d.articles.update(a.id, patch);
    if (patch.content !== undefined) a.content = patch.content;
    if (patch.language !== undefined) a.language = patch.language;
    if (patch.summary !== undefined) a.summary = patch.summary;
    if (patch.metadata) a.metadata = { ...a.metadata, ...patch.metadata };
    if (patch.translations) a.translations = { ...a.translations, ...patch.translations };
    if (to) a.processingStatus = to;
    return written;
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
      const status: FinalArticleStatus = FAILURE_STATUS[stage];
      // the extracted text and language were kept in memory until now: stored with the failure
      return save(a, {
        processingStatus: status,
        // a database error quotes the refused value: a NUL in it would refuse this write too
        processingError: f.error.replaceAll('\u0000', ''),
        // which step failed (the run's counts tell processing from analysis failures)
        metadata: { failed_stage: f.stage },
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
      const { analyzer } = await d.models.forRun(a.ref.runId);
      const analysis = await analyzer.analyze({
        articleId: a.id,
        runId: a.ref.runId,
        title: a.title,
        text: a.content ?? '',
        language: a.language ?? 'en',
      });
      await save(a, {
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
      });
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
      const result = tags.length
        ? await d.tagger.tagArticle({ topicId: a.topicId, articleId: a.id, names: tags })
        : { tagIds: [], createdTags: [], suggestions: 0 };
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
      if (!model || a.translations?.['zh-TW'])
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
