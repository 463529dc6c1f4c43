/**
 * The payloads of the pipeline's events. The events themselves are the steps of an article's flow
 * (ArticleSteps in article-flow.ts: `article.scraped` … `article.translation_failed`) and of a run's
 * end (`scraper.pipeline_completed`, run-end.ts); each step's span is named after its event
 * (`article.processed.handle`). Work moves between processes only as durable jobs (article-jobs.ts).
 */
import type { ArticleFailureStage } from '../../domain/article-status.js';

export interface ArticleRef {
  runId: string;
  articleId: string;
  topicId: string;
  url: string;
  source: string;
}

/**
 * Sent once per new article by the publish stage as its job; starts the article's flow. The job
 * carries the W3C trace context of the run that stored the article, set by the wiring.
 */
export type ArticleScrapedEvent = ArticleRef & { traceparent?: string };

export interface ArticleFailure extends ArticleRef {
  stage: ArticleFailureStage;
  error: string;
}

export interface PipelineCompletedEvent {
  runId: string;
  correlationId: string;
  status: 'completed' | 'failed';
  durationMs: number;
  counts: Record<string, number>;
}
