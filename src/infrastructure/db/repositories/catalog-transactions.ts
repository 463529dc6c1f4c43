import type { SourceInput } from '../../../application/catalog/catalog.ports.js';
import type { CatalogRepositories, CatalogTransactions } from '../../../application/catalog/opml.ports.js';
import type { Db } from '../client.js';
import { sources } from '../schema/index.js';
import { DrizzleSourceRepository, DrizzleTopicRepository } from './catalog.repository.js';

/** rows per INSERT: 5 parameters each, far below PostgreSQL's 65,535 per statement */
const CHUNK = 500;

/** The catalog repositories bound to one transaction (the OPML import writes all or nothing). */
export class DrizzleCatalogTransactions implements CatalogTransactions {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: (repos: CatalogRepositories) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Db;
      return fn({
        topics: new DrizzleTopicRepository(db),
        sources: new DrizzleSourceRepository(db),
        async insertSources(inputs: SourceInput[]) {
          let count = 0;
          for (let i = 0; i < inputs.length; i += CHUNK) {
            const rows = await db
              .insert(sources)
              .values(inputs.slice(i, i + CHUNK))
              .returning({ id: sources.id });
            count += rows.length;
          }
          return count;
        },
      });
    });
  }
}
