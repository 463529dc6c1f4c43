import { sql } from 'drizzle-orm';
import type { ArticleFilter, ReadStateRepository } from '../../../application/articles/articles.ports.js';
import { rowsOf, type Db } from '../client.js';
import { whereOf } from './article.repository.js';
import { workVersions } from './read-state.sql.js';

/** per-topic and per-source article totals are read at most this often (a group-by over every article) */
export const TOPIC_TOTALS_TTL_MS = 15_000;

export class DrizzleReadStateRepository implements ReadStateRepository {
  private totals: {
    until: number;
    byTopic: Map<string, number>;
    bySource: Map<string, { n: number; newestUsec: string }>;
  } | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** marks the article and every other version of its work (docs/decisions/0143-marks-of-a-work.md) */
  async mark(userId: string, articleId: string) {
    const rows = rowsOf<{ known: boolean | string }>(
      await this.db.execute(
        sql`with ins as (
              insert into article_reads (user_id, article_id)
              select ${userId}, v.id from (${workVersions(articleId)}) v
              on conflict do nothing returning 1)
            select exists (select 1 from articles where id = ${articleId}) as known`,
      ),
    );
    return truthy(rows[0]?.known);
  }

  async unmark(userId: string, articleId: string) {
    const rows = rowsOf<{ known: boolean | string }>(
      await this.db.execute(
        sql`with del as (
              delete from article_reads
              where user_id = ${userId} and article_id in (${workVersions(articleId)}) returning 1)
            select exists (select 1 from articles where id = ${articleId}) as known`,
      ),
    );
    return truthy(rows[0]?.known);
  }

  async markMatching(userId: string, filter: ArticleFilter, max: number) {
    // every row of one statement has the same read_at (the transaction's time): that time, to the
    // microsecond, names the batch, so "undo" removes exactly these rows and none marked otherwise
    const rows = rowsOf<{ n: number | string; batch: string | null }>(
      await this.db.execute(
        sql`with ins as (
              insert into article_reads (user_id, article_id)
              select ${userId}, a.id from articles a where ${whereOf({ ...filter, unreadFor: userId })}
              order by a.scraped_at desc, a.id desc limit ${max}
              on conflict do nothing returning read_at)
            select count(*)::int as n,
              to_char(min(read_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as batch
            from ins`,
      ),
    );
    const marked = Number(rows[0]?.n ?? 0);
    return { marked, batch: marked > 0 ? (rows[0]?.batch ?? null) : null };
  }

  async countMatching(userId: string, filter: ArticleFilter, max: number) {
    const rows = rowsOf<{ n: number | string }>(
      await this.db.execute(
        sql`select count(*)::int as n from (
              select 1 from articles a where ${whereOf({ ...filter, unreadFor: userId })} limit ${max}) m`,
      ),
    );
    return Number(rows[0]?.n ?? 0);
  }

  async unmarkBatch(userId: string, batch: string) {
    const rows = rowsOf<{ n: number | string }>(
      await this.db.execute(
        sql`with del as (
              delete from article_reads where user_id = ${userId} and read_at = ${batch}::timestamptz
              returning 1)
            select count(*)::int as n from del`,
      ),
    );
    return Number(rows[0]?.n ?? 0);
  }

  async unreadCounts(userId: string) {
    const [totals, reads] = await Promise.all([
      this.topicTotals(),
      this.db.execute(
        sql`select a.topic_id, count(*)::int as n from article_reads r join articles a on a.id = r.article_id
            where r.user_id = ${userId} group by a.topic_id`,
      ),
    ]);
    const read = new Map(
      rowsOf<{ topic_id: string; n: number | string }>(reads).map((r) => [r.topic_id, Number(r.n)]),
    );
    return [...totals]
      .map(([topicId, total]) => ({ topicId, unread: Math.max(0, total - (read.get(topicId) ?? 0)) }))
      .filter((c) => c.unread > 0)
      .sort((a, b) => a.topicId.localeCompare(b.topicId));
  }

  async unreadBySource(userId: string) {
    const [{ bySource }, reads] = await Promise.all([
      this.articleTotals(),
      this.db.execute(
        sql`select a.source_id, count(*)::int as n from article_reads r join articles a on a.id = r.article_id
            where r.user_id = ${userId} and a.source_id is not null group by a.source_id`,
      ),
    ]);
    const read = new Map(
      rowsOf<{ source_id: string; n: number | string }>(reads).map((r) => [r.source_id, Number(r.n)]),
    );
    return [...bySource]
      .map(([sourceId, t]) => ({
        sourceId,
        unread: Math.max(0, t.n - (read.get(sourceId) ?? 0)),
        newestUsec: t.newestUsec,
      }))
      .filter((c) => c.unread > 0)
      .sort((a, b) => a.sourceId.localeCompare(b.sourceId));
  }

  private async topicTotals(): Promise<Map<string, number>> {
    return (await this.articleTotals()).byTopic;
  }

  /** articles per topic and per source, with each source's newest crawl time: one scan, cached */
  private async articleTotals(): Promise<NonNullable<DrizzleReadStateRepository['totals']>> {
    if (this.totals && this.totals.until > this.now()) return this.totals;
    const rows = rowsOf<{
      topic_id: string;
      source_id: string | null;
      n: number | string;
      usec: string | number;
    }>(
      await this.db.execute(
        sql`select topic_id, source_id, count(*)::int as n,
              (extract(epoch from max(scraped_at)) * 1000000)::bigint::text as usec
            from articles group by topic_id, source_id`,
      ),
    );
    const byTopic = new Map<string, number>();
    const bySource = new Map<string, { n: number; newestUsec: string }>();
    for (const r of rows) {
      const n = Number(r.n);
      byTopic.set(r.topic_id, (byTopic.get(r.topic_id) ?? 0) + n);
      if (!r.source_id) continue;
      const had = bySource.get(r.source_id);
      const usec = String(r.usec);
      bySource.set(r.source_id, {
        n: (had?.n ?? 0) + n,
        newestUsec: had && BigInt(had.newestUsec) > BigInt(usec) ? had.newestUsec : usec,
      });
    }
    this.totals = { until: this.now() + TOPIC_TOTALS_TTL_MS, byTopic, bySource };
    return this.totals;
  }
}

const truthy = (v: boolean | string | undefined) => v === true || v === 't';
