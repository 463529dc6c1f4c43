/**
 * The one event map of the article pipeline (event name → payload). Handlers register against it
 * in the explicit list of pipeline.handlers.ts.
 */
export interface ArticleRef {
  runId: string;
  articleId: string;
  topicId: string;
  url: string;
  source: string;
}

/**
 * Published once per new article by the publish stage; starts the article's flow (its job). The
 * job carries the W3C trace context of the run that stored the article, set by the wiring.
 */
export type ArticleScrapedEvent = ArticleRef & { traceparent?: string };

export interface ArticleFailure extends ArticleRef {
  stage: 'processing' | 'analysis' | 'tag_normalization' | 'translation';
  error: string;
}

export interface PipelineCompletedEvent {
  runId: string;
  correlationId: string;
  status: 'completed' | 'failed';
  durationMs: number;
  counts: Record<string, number>;
}

export interface PipelineEvents {
  'article.scraped': ArticleScrapedEvent;
  'article.processed': ArticleRef & { language: string };
  'article.tag_normalization': ArticleRef & { tags: string[] };
  'article.analysis_completed': ArticleRef & { tagIds: string[] };
  'article.translate': ArticleRef;
  'article.analysis_failed': ArticleFailure;
  'article.tag_normalization_failed': ArticleFailure;
  'article.translation_failed': ArticleFailure;
  'scraper.pipeline_completed': PipelineCompletedEvent;
}

export type PipelineEventName = keyof PipelineEvents;
