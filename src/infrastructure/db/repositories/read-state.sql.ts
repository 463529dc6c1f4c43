import { sql, type SQL } from 'drizzle-orm';

/** SQL fragments of the read state in the list query (article_reads, docs/decisions.md "Read state"). */

/** The list's "is read" column of the row `p` (page rows, decorated query). */
export const isReadSql = (viewerId: string | null): SQL =>
  viewerId
    ? sql`exists (select 1 from article_reads r where r.user_id = ${viewerId} and r.article_id = p.id)`
    : sql`false`;

/**
 * unread_only: an anti-join probing the (user_id, article_id) primary key once per row the sorted
 * index scan reads, so the page stays index-driven (docs/decisions.md "Read state").
 */
export const unreadSql = (userId: string): SQL =>
  sql`not exists (select 1 from article_reads r where r.user_id = ${userId} and r.article_id = a.id)`;
