import { sql } from 'drizzle-orm';
import type { ArticleStates } from '../../../application/pipeline/article-jobs.js';
import type { ArticleRef } from '../../../application/pipeline/pipeline.events.js';
import { rowsOf, type Db } from '../client.js';
import { articles } from '../schema/index.js';

const UNFINISHED = sql`${articles.processingStatus} in ('new', 'analyzed')`;

/** The counts each final state stands for: the steps the article went through, and how it ended. */
function countsOf(status: string, stage: string, translated: boolean): string[] {
  const through = ['processed', 'analyzed', 'tagged', 'completed'];
  switch (status) {
    case 'completed':
      return [...through, translated ? 'translated' : 'translation_skipped'];
    case 'translation_failed':
      return [...through, 'translation_failed'];
    case 'tag_normalization_failed':
      return ['processed', 'analyzed', 'tag_normalization_failed'];
    case 'analysis_failed':
      return stage === 'processing' ? ['processing_failed'] : ['processed', 'analysis_failed'];
    default:
      return [];
  }
}

/**
 * A run's outcome read from its articles' stored statuses: whichever worker processed them, and
 * whether or not the process that started the run is still the one counting.
 */
export class DrizzleArticleStates implements ArticleStates {
  constructor(private readonly db: Db) {}

  async summarize(runId: string): Promise<{ pending: number; counts: Record<string, number> }> {
    const rows = rowsOf<{ status: string; stage: string; translated: boolean; n: number }>(
      await this.db.execute(sql`
        select ${articles.processingStatus} as "status",
               coalesce(${articles.metadata}->>'failed_stage', '') as "stage",
               (${articles.translations} ? 'zh-TW') as "translated",
               count(*)::int as "n"
        from ${articles}
        where ${articles.runId} = ${runId}
        group by 1, 2, 3`),
    );
    const counts: Record<string, number> = {};
    let pending = 0;
    for (const r of rows) {
      const keys = countsOf(r.status, r.stage, r.translated);
      if (!keys.length) pending += Number(r.n);
      for (const k of keys) counts[k] = (counts[k] ?? 0) + Number(r.n);
    }
    return { pending, counts };
  }

  async unfinished(limit: number): Promise<ArticleRef[]> {
    return rowsOf<ArticleRef>(
      await this.db.execute(sql`
        select ${articles.id} as "articleId", coalesce(${articles.runId}::text, '') as "runId", ${articles.topicId} as "topicId",
               ${articles.url} as "url", ${articles.source} as "source"
        from ${articles}
        where ${UNFINISHED}
        order by ${articles.scrapedAt}
        limit ${limit}`),
    );
  }
}
