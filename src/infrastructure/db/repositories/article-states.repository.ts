import { sql } from 'drizzle-orm';
import { PENDING_ARTICLE_STATUSES, countsOfStatus, isArticleStatus } from '../../../domain/article-status.js';
import type { ArticleStates } from '../../../application/pipeline/pipeline.ports.js';
import type { ArticleRef } from '../../../application/pipeline/pipeline.events.js';
import { rowsOf, type Db } from '../client.js';
import { ACTIVE_RUN_STATUSES, RUN_STALE_AFTER_MS } from '../../../domain/runs.js';
import { articles, scraperRuns } from '../schema/index.js';

/** `processing_status in ('new', 'analyzed')`: the statuses of articles with steps to go */
export const PENDING_SQL = sql`${articles.processingStatus} in (${sql.join(
  PENDING_ARTICLE_STATUSES.map((s) => sql`${s}`),
  sql`, `,
)})`;

/**
 * How long the sweep leaves a live run the articles it has just stored. The run's process sends
 * their jobs right after storing them, each with the run's trace context; a sweep in another
 * process (a worker starting, or the periodic one) that gave them jobs first would send them
 * without it, and their article.pipeline spans would start traces of their own. An article whose
 * job is still missing after this, or whose run is no longer alive (its heartbeat stale, or closed
 * as interrupted), is the sweep's.
 */
export const SENDING_GRACE_SECONDS = 60;

/**
 * A run's outcome read from its articles' stored statuses: whichever worker processed them, and
 * whether or not the process that started the run is still there.
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
      const keys = isArticleStatus(r.status) ? countsOfStatus(r.status, r.stage, r.translated) : [];
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
        where ${PENDING_SQL}
          and not (${articles.scrapedAt} > now() - make_interval(secs => ${SENDING_GRACE_SECONDS})
                   and exists (select 1 from ${scraperRuns} r
                               where r.id = ${articles.runId} and r.status in (${sql.join(
                                 ACTIVE_RUN_STATUSES.map((st) => sql`${st}`),
                                 sql`, `,
                               )})
                                 and r.heartbeat_at >= now() - make_interval(secs => ${RUN_STALE_AFTER_MS / 1000})))
        order by ${articles.scrapedAt}
        limit ${limit}`),
    );
  }
}
