import { sql } from 'drizzle-orm';
import type { FavoriteRepository } from '../../../application/articles/articles.ports.js';
import { rowsOf, type Db } from '../client.js';
import { workVersions } from './read-state.sql.js';

export class DrizzleFavoriteRepository implements FavoriteRepository {
  constructor(private readonly db: Db) {}

  async list(userId: string) {
    const rows = rowsOf<{ article_id: string }>(
      await this.db.execute(
        sql`select article_id from favorites where user_id = ${userId} order by created_at desc, article_id`,
      ),
    );
    return rows.map((r) => r.article_id);
  }

  async add(userId: string, articleId: string) {
    // insert-from-select: an unknown article inserts nothing instead of failing on the foreign key;
    // every version of the article's work is favorited with it (docs/decisions/0143-marks-of-a-work.md)
    const inserted = rowsOf(
      await this.db.execute(
        sql`insert into favorites (user_id, article_id)
            select ${userId}, v.id from (${workVersions(articleId)}) v
            on conflict do nothing returning article_id`,
      ),
    );
    if (inserted.length) return 'created' as const;
    const known = rowsOf(await this.db.execute(sql`select 1 from articles where id = ${articleId}`));
    return known.length ? ('exists' as const) : ('no_article' as const);
  }

  async remove(userId: string, articleId: string) {
    await this.db.execute(
      sql`delete from favorites where user_id = ${userId} and article_id in (${workVersions(articleId)})`,
    );
  }
}
