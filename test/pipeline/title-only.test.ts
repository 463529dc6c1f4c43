import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeItem, seedPipeline } from '../helpers/pipeline-factories.js';
import { HttpPeer } from '../peers/http-peer.js';

/**
 * An item whose feed text is only a tracking pixel (all some Feedburner feeds give) and whose page
 * cannot be read when it arrives is stored title-only, not dropped; later runs read its page again,
 * and once it answers the article gets its text and is analysed again over it.
 */
describe.each(dbKinds())('a pixel-only item whose page is down (%s)', (db) => {
  let t: TestApp;
  let site: HttpPeer;
  let pageUp = false;
  const normal = makeItem();
  const pixel = { title: 'Feedburner gives only a pixel for this story', path: '/stories/pixel-only' };

  beforeAll(async () => {
    site = await new HttpPeer((req, res) => {
      if (req.path === '/feed.xml')
        return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(`<?xml version="1.0"?>
<rss version="2.0"><channel><title>Pixels</title><link>${site.url}/</link><description>d</description>
<item><title>${normal.title}</title><link>${normal.url}</link><description>${normal.summary}</description></item>
<item><title>${pixel.title}</title><link>${site.url}${pixel.path}</link>
<description>&lt;img src="http://feeds.feedburner.com/~r/pixels/~4/abc" height="1" width="1" alt=""/&gt;</description></item>
</channel></rss>`);
      if (req.path === pixel.path) {
        if (!pageUp) return void res.writeHead(503).end('busy');
        return void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<html><head><title>Story</title></head><body><nav>Home</nav><article><p>The full story: ` +
              `sparse attention lets protein folding models reach larger complexes.</p></article></body></html>`,
          );
      }
      res.writeHead(404).end();
    }).start();
    // the story's page is on loopback: allowed as an intranet host would be
    t = await buildTestApp({ db, env: { FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
    const admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, { sources: [{ name: 'Pixels', url: `${site.url}/feed.xml` }] });
  });
  afterAll(async () => {
    await t?.close();
    await site?.stop();
  });

  const stored = async () =>
    rowsOf<{
      id: string;
      content: string | null;
      summary: string | null;
      processing_status: string;
      run_id: string;
      metadata: Record<string, unknown>;
    }>(
      await t.container.database.db.execute(
        sql`select id, content, summary, processing_status, run_id, metadata from articles where title = ${pixel.title}`,
      ),
    );

  it('is stored title-only and listed, its flow completed; the next run tries its page again', async () => {
    const first = await t.container.services.scraper.runNow('cli');
    expect(first.counts).toMatchObject({
      discovered: 2,
      fetched: 2,
      title_only: 1,
      published: 2,
      completed: 2,
    });
    const [row] = await stored();
    expect(row).toMatchObject({ content: null, processing_status: 'completed', run_id: first.id });
    expect(row!.metadata.page_missing).toBe(1);
    const listed = (await t.app.inject({ url: '/articles' })).json<{ items: { title: string }[] }>();
    expect(listed.items.map((i) => i.title)).toContain(pixel.title);

    const pageReads = () => site.requests.filter((r) => r.path === pixel.path).length;
    const before = pageReads();
    const second = await t.container.services.scraper.runNow('cli');
    expect(second.counts).toMatchObject({ duplicates: 2, published: 0 });
    expect(second.counts.pages_recovered).toBeUndefined();
    expect(pageReads()).toBeGreaterThan(before);
    expect((await stored())[0]!.metadata.page_missing).toBe(2);
  }, 60_000);

  it('gets its page text once the page answers, and is analysed again over it in that run', async () => {
    pageUp = true;
    const run = await t.container.services.scraper.runNow('cli');
    expect(run.counts).toMatchObject({ published: 0, pages_recovered: 1, completed: 1 });
    const [row] = await stored();
    expect(row).toMatchObject({ processing_status: 'completed', run_id: run.id });
    expect(row!.content).toContain('sparse attention lets protein folding models reach larger complexes');
    expect(row!.metadata.page_missing).toBeUndefined();
    expect(row!.summary).toContain('protein folding');

    // found for good: no later run reads it again
    const reads = site.requests.filter((r) => r.path === pixel.path).length;
    await t.container.services.scraper.runNow('cli');
    expect(site.requests.filter((r) => r.path === pixel.path).length).toBe(reads);
  }, 60_000);
});
