import { sql } from 'drizzle-orm';
import type { ArticleFilter, ReadStateRepository } from '../../../application/articles/articles.ports.js';
import { rowsOf, type Db } from '../client.js';
import { whereOf } from './article.repository.js';

/** per-topic article totals are read at most this often (a group-by over every article) */
export const TOPIC_TOTALS_TTL_MS = 15_000;

export class DrizzleReadStateRepository implements ReadStateRepository {
  private totals: { until: number; byTopic: Map<string, number> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async mark(userId: string, articleId: string) {
    const rows = rowsOf<{ known: boolean | string }>(
      await this.db.execute(
        sql`with ins as (
              insert into article_reads (user_id, article_id)
              select ${userId}, a.id from articles a where a.id = ${articleId}
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
              delete from article_reads where user_id = ${userId} and article_id = ${articleId} returning 1)
            select exists (select 1 from articles where id = ${articleId}) as known`,
      ),
    );
    return truthy(rows[0]?.known);
  }

  async markMatching(userId: string, filter: ArticleFilter, max: number) {
    const rows = rowsOf<{ n: number | string }>(
      await this.db.execute(
        sql`with ins as (
              insert into article_reads (user_id, article_id)
              select ${userId}, a.id from articles a where ${whereOf({ ...filter, unreadFor: userId })}
              order by a.scraped_at desc, a.id desc limit ${max}
              on conflict do nothing returning 1)
            select count(*)::int as n from ins`,
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

  private async topicTotals(): Promise<Map<string, number>> {
    if (this.totals && this.totals.until > this.now()) return this.totals.byTopic;
    const rows = rowsOf<{ topic_id: string; n: number | string }>(
      await this.db.execute(sql`select topic_id, count(*)::int as n from articles group by topic_id`),
    );
    const byTopic = new Map(rows.map((r) => [r.topic_id, Number(r.n)]));
    this.totals = { until: this.now() + TOPIC_TOTALS_TTL_MS, byTopic };
    return byTopic;
  }
}

const truthy = (v: boolean | string | undefined) => v === true || v === 't';
