import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeItem, rssFeed, seedPipeline } from '../helpers/pipeline-factories.js';
import { HttpPeer } from '../peers/http-peer.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { articles, scraperRuns, sources } from '../../src/infrastructure/db/schema/index.js';

const unclosedScript = (lead: string) => `<p>${lead}</p><script>` + 'var x = 1; '.repeat((300 * 1024) / 11);

describe.each(dbKinds())('a scraper run over hostile feeds (%s)', (kind) => {
  let t: TestApp;
  let database: Database;
  let feeds: HttpPeer;
  let internal: Server;
  let internalHits = 0;
  let sourceIds: string[] = [];
  const normal = makeItem({ title: 'A normal item among hostile ones' });
  const scriptContent = makeItem({
    title: 'Content with an unclosed script',
    content: unclosedScript('Lead text.'),
  });
  const scriptPage = makeItem({ title: 'Page with an unclosed script', summary: '' });
  const refused = makeItem({ title: 'Link into the internal network', summary: '' });
  const nul = {
    id: 'n1',
    url: 'https://nul.example.org/a',
    title: 'Nul\u0000 in the title',
    summary: 'Sum\u0000mary text here.',
  };
  const afterNul = {
    id: 'n2',
    url: 'https://nul.example.org/b',
    title: 'The item after the NUL one',
    summary: 'Fine text.',
  };

  beforeAll(async () => {
    internal = createServer((_req, res) => {
      internalHits++;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<p>metadata credentials</p>');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
    const port = (internal.address() as AddressInfo).port;
    feeds = await new HttpPeer((req, res) => {
      if (req.path === '/hostile.xml') {
        scriptPage.url = `${feeds.url}/script-page`;
        refused.url = `http://127.0.0.2:${port}/latest/meta-data/`;
        return void res
          .writeHead(200, { 'content-type': 'application/rss+xml' })
          .end(rssFeed([normal, scriptContent, scriptPage, refused]));
      }
      if (req.path === '/script-page')
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(unclosedScript('Page lead.'));
      if (req.path === '/nul.json')
        return void res.writeHead(200, { 'content-type': 'application/feed+json' }).end(
          JSON.stringify({
            version: 'https://jsonfeed.org/version/1.1',
            title: 'n',
            items: [nul, afterNul],
          }),
        );
      // truncated: a per-source error
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed([makeItem()]).slice(0, 300));
    }).start();
    database = await createTestDatabase(kind);
    t = await buildTestApp({ database, env: { FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
    const admin = await t.login('admin');
    ({ sourceIds } = await seedPipeline(t.app, admin.headers, {
      sources: [
        { name: 'Hostile', url: `${feeds.url}/hostile.xml` },
        { name: 'NUL', url: `${feeds.url}/nul.json` },
        { name: 'Broken', url: `${feeds.url}/broken.xml` },
      ],
    }));

    const start = await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin.headers });
    expect(start.statusCode).toBe(202);
  });
  afterAll(async () => {
    await t.close();
    // the app closes only what it opened: this database (a scratch one on PostgreSQL) is the file's
    await database?.close();
    await feeds.stop();
    await new Promise((resolve) => internal.close(resolve));
  });

  it('keeps /health answering while the run goes, and ends the run', async () => {
    let worst = 0;
    let status = 'running';
    for (let i = 0; i < 2000 && ['queued', 'running'].includes(status); i++) {
      const t0 = performance.now();
      const health = await t.app.inject({ method: 'GET', url: '/health' });
      worst = Math.max(worst, performance.now() - t0);
      expect(health.statusCode).toBeLessThan(500);
      const [run] = await database.db.select().from(scraperRuns);
      status = run?.status ?? 'running';
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await t.container.services.scraper.idle();
    expect(worst).toBeLessThan(100);
    const runs = await database.db.select().from(scraperRuns);
    // a failed source and a refused fetch are the run's errors, each with its reason
    expect(runs.map((r) => r.status)).toEqual(['completed_with_errors']);
    expect(runs[0]!.counts).toMatchObject({ sources_failed: 1, fetch_refused: 1 });
  });

  it('stores every item but the refused one, the NUL item cleaned, and never touches the internal host', async () => {
    const rows = await database.db
      .select()
      .from(articles)
      .where(
        inArray(articles.url, [
          normal.url,
          scriptContent.url,
          scriptPage.url,
          refused.url,
          nul.url,
          afterNul.url,
        ]),
      );
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    expect([...byUrl.keys()].sort()).toEqual(
      [normal.url, scriptContent.url, scriptPage.url, nul.url, afterNul.url].sort(),
    );
    expect(byUrl.get(nul.url)!.title).toBe('Nul in the title');
    expect(byUrl.get(scriptPage.url)!.content).toBe('Page lead.');
    expect(internalHits).toBe(0);
  });

  it('records the malformed feed as the source error', async () => {
    const [broken] = await database.db.select().from(sources).where(eq(sources.id, sourceIds[2]!));
    expect(broken!.lastError).toMatch(/malformed XML/);
  });
});
