import { sql } from 'drizzle-orm';
import type { ViewCountStore, ViewIncrement } from '../../../application/views/views.ports.js';
import { rowsOf, type Db } from '../client.js';
import { uuidArray } from './article.repository.js';

export class DrizzleViewCountStore implements ViewCountStore {
  constructor(private readonly db: Db) {}

  /** One UPDATE ... FROM unnest(ids, counts): a batch of thousands is a single statement. */
  async addViews(increments: readonly ViewIncrement[]) {
    if (!increments.length) return { articles: 0, views: 0 };
    // the same article twice in one batch would make UPDATE ... FROM apply only one of the rows
    const merged = new Map<string, number>();
    for (const i of increments) merged.set(i.articleId, (merged.get(i.articleId) ?? 0) + i.views);
    const ids = [...merged.keys()];
    const counts = sql`${`{${[...merged.values()].join(',')}}`}::int[]`;
    // `a.id = any(ids)` lets the planner fetch the rows through the primary key instead of hashing
    // a sequential scan of the whole table for every batch
    const idArray = uuidArray(ids);
    const rows = rowsOf<{ views: number }>(
      await this.db.execute(sql`
        update articles a set view_count = coalesce(a.view_count, 0) + v.views
        from unnest(${idArray}, ${counts}) as v(id, views)
        where a.id = v.id and a.id = any(${idArray})
        returning v.views`),
    );
    return { articles: rows.length, views: rows.reduce((s, r) => s + Number(r.views), 0) };
  }

  async exists(articleId: string) {
    return rowsOf(await this.db.execute(sql`select 1 from articles where id = ${articleId}`)).length > 0;
  }
}
