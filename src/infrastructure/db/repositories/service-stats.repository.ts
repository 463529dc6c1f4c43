import { sql } from 'drizzle-orm';
import type {
  CitationCoverage,
  RunsOfDay,
  ServiceStatsStore,
  SourceArticles,
  SourceLastRun,
  StageFailures,
} from '../../../application/monitoring/service-stats.ports.js';
import { rowsOf, type Db } from '../client.js';

const CITATION_KEY = 'citation_count';
const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(String(v)).toISOString();

/**
 * Every query on the runs table is in this one function (scraper_runs: status, started_at, and
 * counts jsonb whose `<stage>_failed` keys count an article's failures per stage). The runs model
 * is being reshaped into a generic one: adapting the Service tab means rewriting only this.
 */
export function runsQueries(db: Db) {
  return {
    async perDay(since: Date): Promise<RunsOfDay[]> {
      const rows = rowsOf<Record<keyof RunsOfDay, string | number>>(
        await db.execute(sql`
          select to_char(started_at at time zone 'UTC', 'YYYY-MM-DD') as day,
                 count(*) filter (where status = 'completed')::int as completed,
                 count(*) filter (where status = 'completed_with_errors')::int as completed_with_errors,
                 count(*) filter (where status = 'failed')::int as failed,
                 count(*) filter (where status = 'interrupted')::int as interrupted,
                 count(*) filter (where status in ('queued', 'running'))::int as running
          from scraper_runs where started_at >= ${since.toISOString()}::timestamptz
          group by 1 order by 1`),
      );
      return rows.map((r) => ({
        day: String(r.day),
        completed: Number(r.completed),
        completed_with_errors: Number(r.completed_with_errors),
        failed: Number(r.failed),
        interrupted: Number(r.interrupted),
        running: Number(r.running),
      }));
    },
    async failuresPerStage(since: Date): Promise<StageFailures[]> {
      const rows = rowsOf<{ stage: string; count: number }>(
        await db.execute(sql`
          select left(c.key, length(c.key) - length('_failed')) as stage, sum(c.value::numeric)::int as count
          from scraper_runs r, jsonb_each_text(r.counts) c
          where r.started_at >= ${since.toISOString()}::timestamptz
            and jsonb_typeof(r.counts) = 'object'
            and c.key like '%\_failed' and c.value ~ '^[0-9]+$'
          group by 1 having sum(c.value::numeric) > 0 order by 2 desc, 1`),
      );
      return rows.map((r) => ({ stage: r.stage, count: Number(r.count) }));
    },
  };
}

/** The Service tab's numbers, read from the service's own tables. */
export class DrizzleServiceStatsStore implements ServiceStatsStore {
  private readonly runs: ReturnType<typeof runsQueries>;

  constructor(private readonly db: Db) {
    this.runs = runsQueries(db);
  }

  runsPerDay(since: Date) {
    return this.runs.perDay(since);
  }

  failuresPerStage(since: Date) {
    return this.runs.failuresPerStage(since);
  }

  async articlesPerSource(since: Date, limit: number): Promise<SourceArticles[]> {
    const rows = rowsOf<{ source: string; count: number }>(
      await this.db.execute(sql`
        select source, count(*)::int as count from articles
        where scraped_at >= ${since.toISOString()}::timestamptz
        group by source order by 2 desc, 1 limit ${limit}`),
    );
    return rows.map((r) => ({ source: r.source, count: Number(r.count) }));
  }

  async citationCoverage(since: Date): Promise<CitationCoverage> {
    const [row] = rowsOf<{ articles: number; with_citation: number }>(
      await this.db.execute(sql`
        select count(*)::int as articles,
               count(*) filter (where exists (
                 select 1 from article_metrics m
                 where m.article_id = a.id and m.metric_key = ${CITATION_KEY} and m.value is not null
               ))::int as with_citation
        from articles a where a.scraped_at >= ${since.toISOString()}::timestamptz`),
    );
    const articles = Number(row?.articles ?? 0);
    const withCitation = Number(row?.with_citation ?? 0);
    return { articles, with_citation: withCitation, share: articles ? withCitation / articles : null };
  }

  async lastRunPerSource(limit: number): Promise<SourceLastRun[]> {
    const rows = rowsOf<{
      id: string;
      name: string;
      topic: string;
      enabled: boolean;
      last_fetched_at: unknown;
      last_error: string | null;
      last_article_at: unknown;
    }>(
      await this.db.execute(sql`
        select s.id, s.name, t.name as topic, s.enabled, s.last_fetched_at, s.last_error,
               a.last_article_at
        from sources s join topics t on t.id = s.topic_id
        -- one grouped scan of articles (source_id has no index of its own)
        left join (select source_id, max(scraped_at) as last_article_at from articles
                   where source_id is not null group by source_id) a on a.source_id = s.id
        order by s.last_fetched_at desc nulls last, s.name limit ${limit}`),
    );
    return rows.map((r) => ({
      source_id: r.id,
      name: r.name,
      topic: r.topic,
      enabled: Boolean(r.enabled),
      last_fetched_at: iso(r.last_fetched_at),
      last_error: r.last_error,
      last_article_at: iso(r.last_article_at),
    }));
  }
}
