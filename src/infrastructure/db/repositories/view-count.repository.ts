import { sql } from 'drizzle-orm';
import type { ViewCountStore, ViewIncrement } from '../../../application/views/views.ports.js';
import { rowsOf, type Db } from '../client.js';
import { uuidArray } from './article.repository.js';

export class DrizzleViewCountStore implements ViewCountStore {
  constructor(private readonly db: Db) {}

  /**
   * One upsert from unnest(ids, counts): a batch of thousands is a single statement that adds to
   * narrow article_view_counts rows. Counters of articles deleted since are dropped; ids are sorted
   * so that two flushes touching the same rows lock them in the same order.
   */
  async addViews(increments: readonly ViewIncrement[]) {
    if (!increments.length) return { articles: 0, views: 0 };
    // one row per article: ON CONFLICT cannot update the same row twice in one statement
    const merged = new Map<string, number>();
    for (const i of increments) merged.set(i.articleId, (merged.get(i.articleId) ?? 0) + i.views);
    const ids = [...merged.keys()].sort();
    const counts = sql`${`{${ids.map((id) => merged.get(id)!).join(',')}}`}::int[]`;
    const rows = rowsOf<{ article_id: string }>(
      await this.db.execute(sql`
        insert into article_view_counts as c (article_id, view_count)
        select v.id, v.views from unnest(${uuidArray(ids)}, ${counts}) with ordinality as v(id, views, n)
        where exists (select 1 from articles a where a.id = v.id)
        order by v.n
        on conflict (article_id) do update set view_count = c.view_count + excluded.view_count
        returning c.article_id`),
    );
    return { articles: rows.length, views: rows.reduce((s, r) => s + merged.get(r.article_id)!, 0) };
  }

  async exists(articleId: string) {
    return rowsOf(await this.db.execute(sql`select 1 from articles where id = ${articleId}`)).length > 0;
  }
}
