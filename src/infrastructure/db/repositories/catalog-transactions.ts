import type { CatalogRepositories, CatalogTransactions } from '../../../application/catalog/opml.ports.js';
import type { Db } from '../client.js';
import { DrizzleSourceRepository, DrizzleTopicRepository } from './catalog.repository.js';

/** The catalog repositories bound to one transaction (the OPML import writes all or nothing). */
export class DrizzleCatalogTransactions implements CatalogTransactions {
  constructor(private readonly db: Db) {}

  transaction<T>(fn: (repos: CatalogRepositories) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const db = tx as unknown as Db;
      return fn({ topics: new DrizzleTopicRepository(db), sources: new DrizzleSourceRepository(db) });
    });
  }
}
