import { sql, type SQL } from 'drizzle-orm';

/** SQL fragments of the read state in the list query (article_reads, docs/decisions/0038-read-state.md). */

/** The list's "is read" column of the row `p` (page rows, decorated query). */
export const isReadSql = (viewerId: string | null): SQL =>
  viewerId
    ? sql`exists (select 1 from article_reads r where r.user_id = ${viewerId} and r.article_id = p.id)`
    : sql`false`;

/**
 * unread_only: an anti-join probing the (user_id, article_id) primary key once per row the sorted
 * index scan reads, so the page stays index-driven (docs/decisions/0038-read-state.md).
 */
export const unreadSql = (userId: string): SQL =>
  sql`not exists (select 1 from article_reads r where r.user_id = ${userId} and r.article_id = a.id)`;

/**
 * The ids of an article and of every other version of its work (none when the id is unknown): a
 * read or favorite mark on one version is a mark on the work (docs/decisions/0143-marks-of-a-work.md).
 * Two index probes: the primary key, then the partial index of work members.
 */
export const workVersions = (articleId: string): SQL =>
  sql`select a.id from articles a where a.id = ${articleId}
      union select m.id from articles m
      where m.work_id = (select w.work_id from articles w where w.id = ${articleId})`;
