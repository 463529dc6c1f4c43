import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeItem, rssFeed, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { articles, sources } from '../../src/infrastructure/db/schema/index.js';

/**
 * An OPML file is a list of URLs nobody reviewed: its feeds are judged by the outbound rules of item
 * links (the SSRF guard, FETCH_ALLOWED_HOSTS), the refusals shown per feed in the preview, and a
 * refused host is imported only when the admin allows it for the import.
 */
describe('OPML import under the outbound rules', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let internal: HttpPeer;
  const secretItem = makeItem({ title: 'Internal memo that must stay internal' });

  const opml = (feeds: { title: string; url: string }[]) =>
    `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>
<outline text="Intranet">${feeds.map((f) => `<outline type="rss" text="${f.title}" xmlUrl="${f.url}"/>`).join('')}</outline>
</body></opml>`;
  const upload = (xml: string, query: string) =>
    t.app.inject({
      method: 'POST',
      url: `/admin/sources/opml?${query}`,
      headers: { ...admin, 'content-type': 'text/x-opml' },
      payload: xml,
    });
  interface Result {
    sources: { url: string }[];
    refused: { name: string; url: string; host: string; reason: string }[];
    topics: { name: string; sources: number }[];
    created: { topics: number; sources: number };
  }

  beforeAll(async () => {
    internal = await startFeedServer({ '/feed.xml': rssFeed([secretItem]) });
    t = await buildTestApp();
    admin = (await t.login('admin')).headers as { authorization: string };
  });
  afterAll(async () => {
    await t.close();
    await internal.stop();
  });

  const feeds = () => [
    { title: 'Loopback', url: `${internal.url}/feed.xml` },
    { title: 'Metadata', url: 'http://169.254.169.254/latest/meta-data/' },
    { title: 'Private', url: 'http://10.1.2.3/feed' },
    { title: 'Public', url: 'http://93.184.216.34/feed.xml' },
  ];

  it('previews every refused feed with its host and reason, apart from the ones to create', async () => {
    const res = await upload(opml(feeds()), 'dry_run=true');
    expect(res.statusCode).toBe(200);
    const plan = res.json<Result>();
    expect(plan.sources.map((s) => s.url)).toEqual(['http://93.184.216.34/feed.xml']);
    expect(plan.refused.map((r) => [r.name, r.host])).toEqual([
      ['Loopback', '127.0.0.1'],
      ['Metadata', '169.254.169.254'],
      ['Private', '10.1.2.3'],
    ]);
    expect(plan.refused.map((r) => r.reason)).toEqual([
      expect.stringMatching(/loopback/),
      expect.stringMatching(/linkLocal/),
      expect.stringMatching(/private/),
    ]);
    expect(plan.topics).toEqual([expect.objectContaining({ name: 'Intranet', sources: 1 })]);
  });

  it('imports without the refused feeds, so a run never lists the internal feed’s items', async () => {
    const res = await upload(opml(feeds()), 'dry_run=false');
    expect(res.statusCode).toBe(200);
    expect(res.json<Result>().created).toEqual({ topics: 1, sources: 1 });
    const stored = await t.container.database.db.select({ url: sources.url }).from(sources);
    expect(stored.map((s) => s.url)).toEqual(['http://93.184.216.34/feed.xml']);
    await t.container.database.db.delete(sources);
    await t.container.services.scraper.runNow('cli');
    expect(internal.requests).toHaveLength(0);
    const listed = await t.app.inject({ url: '/articles' });
    expect(JSON.stringify(listed.json())).not.toContain(secretItem.title);
  });

  it('imports a refused host the admin allows, and only that one', async () => {
    const res = await upload(opml(feeds()), 'dry_run=false&allow_hosts=127.0.0.1');
    expect(res.statusCode).toBe(200);
    const result = res.json<Result>();
    expect(result.refused.map((r) => r.host)).toEqual(['169.254.169.254', '10.1.2.3']);
    const [loopback] = await t.container.database.db
      .select()
      .from(sources)
      .where(eq(sources.url, `${internal.url}/feed.xml`));
    expect(loopback).toBeDefined();
    // allowed by the admin: read like a source typed in by hand
    await t.container.services.scraper.runNow('cli', undefined, { kind: 'source', sourceId: loopback!.id });
    const stored = await t.container.database.db
      .select({ title: articles.title })
      .from(articles)
      .where(eq(articles.url, secretItem.url));
    expect(stored).toEqual([{ title: secretItem.title }]);
  });
});
