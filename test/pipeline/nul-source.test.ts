import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeItem, rssFeed, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { articles, runErrors, scraperRuns, sources } from '../../src/infrastructure/db/schema/index.js';

/**
 * A source whose body holds U+0000 where the parser chokes on it: the parser's message quotes the
 * NUL. Such a source fails alone, with its error stored cleaned; the other sources store their items.
 */
describe.each(dbKinds())('a scraper run with a NUL in a malformed feed (%s)', (kind) => {
  let t: TestApp;
  let database: Database;
  let feeds: HttpPeer;
  let sourceIds: string[] = [];
  const good = [makeItem({ title: 'An ordinary item next to a broken feed' }), makeItem()];
  const hostileRss = rssFeed([makeItem()]).replace('</item>', '</ite\u0000m>');
  const hostileJson = '{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"\u0000", oops}';

  beforeAll(async () => {
    feeds = await startFeedServer({
      '/good.xml': rssFeed(good),
      '/nul.xml': hostileRss,
      '/nul.json': hostileJson,
    });
    database = await createTestDatabase(kind);
    t = await buildTestApp({ database, env: { FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
    const admin = await t.login('admin');
    ({ sourceIds } = await seedPipeline(t.app, admin.headers, {
      sources: [
        { name: 'NUL in XML', url: `${feeds.url}/nul.xml` },
        { name: 'Good', url: `${feeds.url}/good.xml` },
        { name: 'NUL in JSON', url: `${feeds.url}/nul.json` },
      ],
    }));
    const start = await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin.headers });
    expect(start.statusCode).toBe(202);
    await t.container.services.scraper.idle();
  });
  afterAll(async () => {
    await t?.close();
    // the app closes only what it opened: this database (a scratch one on PostgreSQL) is the file's
    await database?.close();
    await feeds?.stop();
  });

  it('ends the run with errors, not as failed', async () => {
    const [run] = await database.db.select().from(scraperRuns).where(eq(scraperRuns.kind, 'scrape'));
    expect(run!.error).toBeNull();
    expect(run!.status).toBe('completed_with_errors');
    expect(run!.counts).toMatchObject({ sources: 3, sources_failed: 2 });
  });

  it('stores the other source’s articles', async () => {
    const rows = await database.db
      .select({ url: articles.url })
      .from(articles)
      .where(
        inArray(
          articles.url,
          good.map((g) => g.url),
        ),
      );
    expect(rows.map((r) => r.url).sort()).toEqual(good.map((g) => g.url).sort());
  });

  it('stores each hostile source’s error without the NUL, and lists it among the run’s errors', async () => {
    const rows = await database.db
      .select({ id: sources.id, lastError: sources.lastError })
      .from(sources)
      .where(inArray(sources.id, [sourceIds[0]!, sourceIds[2]!]));
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.lastError).toBeTruthy();
      expect(r.lastError).not.toContain('\u0000');
    }
    const errors = await database.db.select().from(runErrors);
    expect(errors.map((e) => e.sourceId).sort()).toEqual([sourceIds[0], sourceIds[2]].sort());
  });
});
