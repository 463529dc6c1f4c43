import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { jsonFeed, makeItem, rssFeed, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';

/**
 * One hostile item never blocks the run: a JSON Feed item with U+0000 in its title (JSON allows
 * it; whether the parser cleans it or the store refuses it, nothing else may suffer) and an item
 * whose URL the database cannot index, next to ordinary items of the same and of another source.
 * Every other item is stored, the refusal is recorded with its reason, and the run ends.
 */
describe.each(dbKinds())('a run with items the database refuses (%s)', (db) => {
  let t: TestApp;
  let feeds: HttpPeer;
  const hugeUrl = `https://news.example.org/${randomBytes(6000).toString('hex')}`;
  const poisoned = makeItem({ title: 'Poisoned \u0000 title of one single item' });
  const huge = makeItem({ url: hugeUrl, title: 'An item whose address is far too long to index' });
  const json = [makeItem(), poisoned, makeItem(), huge, makeItem()];
  const rss = [makeItem(), makeItem()];

  beforeAll(async () => {
    feeds = await startFeedServer({ '/feed.json': jsonFeed(json), '/feed.xml': rssFeed(rss) });
    t = await buildTestApp({ db });
  });
  afterAll(async () => {
    await t.close();
    await feeds.stop();
  });

  it('stores every other item, records the refusal and ends the run', async () => {
    const admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, {
      sources: [
        { name: 'JSON', url: `${feeds.url}/feed.json` },
        { name: 'RSS', url: `${feeds.url}/feed.xml` },
      ],
    });
    const started = await t.app.inject({
      method: 'POST',
      url: '/admin/scraper/runs',
      headers: admin.headers,
    });
    expect(started.statusCode).toBe(202);
    const { run_id } = started.json<{ run_id: string }>();
    let run: { status: string; finished_at: string | null; counts: Record<string, number> } | undefined;
    for (let i = 0; i < 400; i++) {
      run = (await t.app.inject({ url: `/admin/scraper/runs/${run_id}`, headers: admin.headers })).json<
        typeof run & object
      >();
      if (run.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(run).toMatchObject({ status: 'completed' });
    expect(run!.finished_at).not.toBeNull();

    const stored = rowsOf<{ url: string; title: string }>(
      await t.container.database.db.execute(sql`select url, title from articles`),
    );
    const urls = new Set(stored.map((r) => r.url));
    for (const item of [...json, ...rss].filter((i) => i !== poisoned && i !== huge))
      expect(urls.has(item.url)).toBe(true);
    expect(urls.has(hugeUrl)).toBe(false);

    const skips = rowsOf<{ url: string; reason: string; detail: string | null }>(
      await t.container.database.db.execute(
        sql`select url, reason, detail from scraper_skips where run_id = ${run_id} and reason = 'refused'`,
      ),
    );
    // the huge URL: dropped at the feed door (over its 2,000-character limit) or refused by the
    // store and recorded bounded (2,000 characters); the store's side alone is in pipeline-store-robust
    const hugeSkip = skips.find((s) => hugeUrl.startsWith(s.url.slice(0, -1)));
    if (hugeSkip) expect(hugeSkip.url.length).toBe(2000);
    for (const s of skips) expect(s.detail).toBeTruthy();
    // the poisoned item: stored cleaned (the parser's boundary) or refused on its own (the store's)
    const poisonedRow = stored.find((r) => r.url === poisoned.url);
    if (poisonedRow) expect(poisonedRow.title).not.toContain('\u0000');
    else expect(skips.map((s) => s.url)).toContain(poisoned.url);
    expect(run!.counts.refused ?? 0).toBe(skips.length);
    expect(run!.counts.published).toBe(stored.length);
  });
});
