/**
 * The handlers of the pipeline's events, registered in this explicit list. Each handler does one
 * step for one article and publishes the next event; a handler that throws publishes the failure
 * event named in its registration instead (the bus does that), so one article never stops a run.
 * An article's flow runs as a job that may run again (a retry, a crash, a hand-back at SIGTERM):
 * each handler reads the stored status first and skips a step already done, so nothing is done
 * twice. The run's article counts are read from the stored statuses at its end (ArticleStates).
 */
import type { ArticleTagger } from '../shared/tagging.js';
import type { Messenger } from '../shared/messenger.js';
import type { Logger } from '../shared/ports.js';
import { on, type AnyRegistration, type QueuedEvent } from './event-bus.js';
import type { ArticleFailure, ArticleRef, PipelineEvents } from './pipeline.events.js';
import type { ArticlePatch, ArticleStore, PipelineArticle, PipelineMetrics } from './pipeline.ports.js';
import type { RunRegistry } from './run-registry.js';
import { translateToZhTw } from './analysis.js';
import { detectLanguage } from './offline-analyzer.js';
import { htmlToText } from './text-extract.js';

export interface HandlerDeps {
  articles: ArticleStore;
  tagger: ArticleTagger;
  runs: RunRegistry;
  metrics: PipelineMetrics;
  messenger: Messenger;
  /** TELEGRAM_OPS_CHAT_ID: where the pipeline-completed notice goes */
  opsChatId: string | undefined;
  logger: Logger;
}

type Ev = PipelineEvents;
/** statuses after which an article's flow has nothing left to do */
export const FINAL_STATUSES = [
  'completed',
  'analysis_failed',
  'tag_normalization_failed',
  'translation_failed',
] as const;
const isFinal = (status: string | undefined) =>
  (FINAL_STATUSES as readonly string[]).includes(status ?? 'new');

type FailureName =
  'article.analysis_failed' | 'article.tag_normalization_failed' | 'article.translation_failed';

const ref = (e: ArticleRef): ArticleRef => ({
  runId: e.runId,
  articleId: e.articleId,
  topicId: e.topicId,
  url: e.url,
  source: e.source,
});

const failWith =
  (name: FailureName, stage: ArticleFailure['stage']) =>
  (e: ArticleRef, err: Error): QueuedEvent<Ev> => ({
    name,
    payload: { ...ref(e), stage, error: err.message },
  });

export function pipelineHandlers(d: HandlerDeps): AnyRegistration<Ev>[] {
  const log = d.logger;
  const ids = (e: ArticleRef) => ({ run_id: e.runId, article_id: e.articleId });
  const load = async (e: ArticleRef): Promise<PipelineArticle> => {
    const cached = (await d.runs.state(e.runId)).articles.get(e.articleId);
    if (cached) return cached;
    const a = await d.articles.get(e.articleId);
    if (!a) throw new Error(`article ${e.articleId} no longer exists`);
    return a;
  };
  /** writes the patch and keeps the run's copy of the article current */
  const save = async (a: PipelineArticle, patch: ArticlePatch) => {
    await d.articles.update(a.id, patch);
    if (patch.content !== undefined) a.content = patch.content;
    if (patch.language !== undefined) a.language = patch.language;
    if (patch.summary !== undefined) a.summary = patch.summary;
    if (patch.metadata) a.metadata = { ...a.metadata, ...patch.metadata };
    if (patch.processingStatus) a.processingStatus = patch.processingStatus;
  };

  const failureHandler = (name: FailureName, status: string) =>
    on<Ev, FailureName>(
      name,
      `${name}.handle`,
      async (e) => {
        log.error({
          event: `article.${e.stage}.failed`,
          ...ids(e),
          stage: e.stage,
          error: e.error,
          url: e.url,
        });
        // the extracted text and language were kept in memory until now: store them with the failure
        const a = (await d.runs.state(e.runId)).articles.get(e.articleId);
        await d.articles.update(e.articleId, {
          processingStatus: status,
          // a database error quotes the refused value: a NUL in it would refuse this write too
          processingError: e.error.replaceAll('\u0000', ''),
          // which step failed (the run's counts tell processing from analysis failures)
          metadata: { failed_stage: e.stage },
          ...(a ? { content: a.content, language: a.language } : {}),
        });
        if (a) a.processingStatus = status;
      },
      { failure: true },
    );

  return [
    // content extraction and language
    on<Ev, 'article.scraped'>(
      'article.scraped',
      'article.scraped.handle',
      async (e, emit) => {
        const started = Date.now();
        const a = await load(e);
        // a job that runs again: a finished article is left as it is
        if (isFinal(a.processingStatus)) return;
        if ((a.processingStatus ?? 'new') !== 'new') {
          // the text and language were stored with the analysis
          emit('article.processed', { ...ref(e), language: a.language ?? 'en' });
          return;
        }
        const text = htmlToText(a.content ?? String(a.metadata.feed_summary ?? ''));
        const language = detectLanguage(`${a.title} ${text}`);
        // stored with the analysis (or the failure): one write per step saved
        a.content = text || null;
        a.language = language;
        log.debug({
          event: 'article.processing.completed',
          ...ids(e),
          stage: 'processing',
          duration_ms: Date.now() - started,
        });
        emit('article.processed', { ...ref(e), language });
      },
      { onError: failWith('article.analysis_failed', 'processing') },
    ),
    // summary and tags by the active provider or the built-in analyzer
    on<Ev, 'article.processed'>(
      'article.processed',
      'article.processed.handle',
      async (e, emit) => {
        const started = Date.now();
        const a = await load(e);
        if (a.processingStatus === 'analyzed') {
          // analysed by an earlier attempt: its summary and suggested tags are stored
          const stored = a.metadata.suggested_tags;
          const tags = Array.isArray(stored) ? stored.filter((t): t is string => typeof t === 'string') : [];
          emit('article.tag_normalization', { ...ref(e), tags });
          return;
        }
        const state = await d.runs.state(e.runId);
        const analysis = await state.analyzer.analyze({
          articleId: a.id,
          runId: e.runId,
          title: a.title,
          text: a.content ?? '',
          language: a.language ?? e.language,
        });
        await save(a, {
          content: a.content,
          summary: analysis.summary,
          language: analysis.language,
          processingStatus: 'analyzed',
          metadata: { analyzer: state.analyzer.name, suggested_tags: analysis.tags },
        });
        log.info({
          event: 'article.analysis.summarized',
          ...ids(e),
          stage: 'analysis',
          analyzer: state.analyzer.name,
          tags: analysis.tags.length,
          duration_ms: Date.now() - started,
        });
        emit('article.tag_normalization', { ...ref(e), tags: analysis.tags });
      },
      { onError: failWith('article.analysis_failed', 'analysis') },
    ),
    // tags of the topic: exact match, else similar existing tag, else a normalization suggestion
    on<Ev, 'article.tag_normalization'>(
      'article.tag_normalization',
      'article.tag_normalization.handle',
      async (e, emit) => {
        const started = Date.now();
        const result = e.tags.length
          ? await d.tagger.tagArticle({ topicId: e.topicId, articleId: e.articleId, names: e.tags })
          : { tagIds: [], createdTags: [], suggestions: 0 };
        log.info({
          event: 'article.tag_normalization.completed',
          ...ids(e),
          stage: 'tag_normalization',
          tags: result.tagIds.length,
          created_tags: result.createdTags.length,
          suggestions: result.suggestions,
          duration_ms: Date.now() - started,
        });
        emit('article.analysis_completed', { ...ref(e), tagIds: result.tagIds });
      },
      { onError: failWith('article.tag_normalization_failed', 'tag_normalization') },
    ),
    on<Ev, 'article.analysis_completed'>(
      'article.analysis_completed',
      'article.analysis_completed.handle',
      async (e, emit) => {
        // the status is written with the translation, the flow's last step
        log.info({
          event: 'article.analysis.completed',
          ...ids(e),
          stage: 'analysis',
          tags: e.tagIds.length,
        });
        emit('article.translate', ref(e));
      },
    ),
    // title and summary to zh-TW, only when a provider exists
    on<Ev, 'article.translate'>(
      'article.translate',
      'article.translate.handle',
      async (e) => {
        const model = (await d.runs.state(e.runId)).model;
        if (!model) {
          await d.articles.update(e.articleId, { processingStatus: 'completed', processingError: null });
          return;
        }
        const started = Date.now();
        const a = await load(e);
        const zh = await translateToZhTw(model, log, { articleId: a.id, runId: e.runId }, a.title, a.summary);
        await save(a, {
          translations: { 'zh-TW': zh },
          processingStatus: 'completed',
          processingError: null,
        });
        log.info({
          event: 'article.translation.completed',
          ...ids(e),
          stage: 'translation',
          locale: 'zh-TW',
          duration_ms: Date.now() - started,
        });
      },
      { onError: failWith('article.translation_failed', 'translation') },
    ),
    failureHandler('article.analysis_failed', 'analysis_failed'),
    failureHandler('article.tag_normalization_failed', 'tag_normalization_failed'),
    failureHandler('article.translation_failed', 'translation_failed'),
    on<Ev, 'scraper.pipeline_completed'>(
      'scraper.pipeline_completed',
      'scraper.pipeline_completed.handle',
      async (e) => {
        await d.metrics.recordRun(e);
        log.info({
          event: 'scraper.metrics.pushed',
          run_id: e.runId,
          counts: e.counts,
          duration_ms: e.durationMs,
        });
      },
    ),
    on<Ev, 'scraper.pipeline_completed'>(
      'scraper.pipeline_completed',
      'scraper.pipeline_completed.notify',
      async (e) => {
        if (!d.opsChatId || !d.messenger.configured) return;
        await d.messenger.send(d.opsChatId, runNotice(e), { disablePreview: true });
        log.info({ event: 'scraper.notification.sent', run_id: e.runId });
      },
    ),
  ];
}

export function runNotice(e: PipelineEvents['scraper.pipeline_completed']): string {
  const c = e.counts;
  const failed =
    (c.processing_failed ?? 0) +
    (c.analysis_failed ?? 0) +
    (c.tag_normalization_failed ?? 0) +
    (c.translation_failed ?? 0);
  return [
    `Scraper run ${e.status} in ${(e.durationMs / 1000).toFixed(1)} s (run ${e.runId})`,
    `sources: ${c.sources ?? 0} (${c.sources_failed ?? 0} failed)`,
    `discovered: ${c.discovered ?? 0}, duplicates: ${c.duplicates ?? 0}, published: ${c.published ?? 0}`,
    `analyzed: ${c.analyzed ?? 0}, translated: ${c.translated ?? 0}, failed: ${failed}`,
  ].join('\n');
}
