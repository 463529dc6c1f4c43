import type { JobQueue } from '../jobs/job-queue.ports.js';
import { ARTICLE_QUEUE, type ArticleJobData } from './article-jobs.js';

/** A job that failed for good, as GET /admin/jobs/dead lists it. */
export interface DeadJobView {
  id: string;
  queue: string;
  article_id: string | null;
  run_id: string | null;
  url: string | null;
  /** the step that failed: processing, analysis, tag_normalization or translation (null: unknown) */
  stage: string | null;
  error: string;
  attempts: number;
  failed_at: string;
}

/** The dead-letter state of the article jobs: each failed article with its step, reason and attempts. */
export class DeadJobsService {
  constructor(private readonly queue: JobQueue) {}

  async list(page: { limit: number; offset: number }) {
    const { items, total } = await this.queue.dead<Partial<ArticleJobData>>(ARTICLE_QUEUE, page);
    return {
      items: items.map((j): DeadJobView => ({
        id: j.id,
        queue: j.queue,
        article_id: j.data.articleId ?? null,
        run_id: j.data.runId || null,
        url: j.data.url ?? null,
        stage: j.stage,
        error: j.error,
        attempts: j.attempts,
        failed_at: j.failedAt.toISOString(),
      })),
      total,
      limit: page.limit,
      offset: page.offset,
    };
  }
}
