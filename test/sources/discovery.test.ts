import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverFeeds } from '../../src/infrastructure/feeds/feed-discovery.js';
import { HttpFeedProbe } from '../../src/infrastructure/feeds/feed-probe.js';
import { HttpFetcher } from '../../src/infrastructure/feeds/http-fetcher.js';
import { HttpPeer } from '../peers/http-peer.js';

const page = (name: string) =>
  readFileSync(new URL(`../fixtures/feeds/discovery/${name}`, import.meta.url), 'utf8');

describe('feed discovery on real pages', () => {
  it("follows Firefox's rules: rel token lists, case, whitespace, rel=feed; no stylesheet alternates", () => {
    const feeds = discoverFeeds(page('mozilla-feed-discovery.html'), 'https://site.example/blog/');
    expect(feeds.map((f) => f.title)).toEqual(Array.from({ length: 13 }, (_, i) => String(i + 1)));
    expect(feeds[0]).toEqual({ url: 'https://site.example/1.atom', title: '1', type: 'atom' });
    expect(feeds[1]).toEqual({ url: 'https://site.example/2.rss', title: '2', type: 'rss' });
    expect(feeds[2]).toEqual({ url: 'https://site.example/3.xml', title: '3', type: null });
    expect(feeds.some((f) => f.title?.startsWith('Bogus'))).toBe(false);
  });

  it('resolves against <base href> and ignores links inside comments', () => {
    expect(discoverFeeds(page('coldsweat-html4-base.html'), 'http://example.com/')).toEqual([
      { url: 'http://somedomain.com/articles.xml', title: 'RSS', type: 'rss' },
    ]);
    expect(discoverFeeds(page('coldsweat-html5-xhtml.html'), 'http://example.com/a/b')).toEqual([
      { url: 'http://example.com/feed', title: 'Our page feed', type: 'atom' },
    ]);
  });

  it('reads hostile markup in one pass: scripts, comments, entities, javascript: and duplicates', () => {
    const html = `<html><head>
      <script>document.write('<link rel="alternate" type="application/rss+xml" href="/in-script">')</script>
      <!-- <link rel="alternate" type="application/rss+xml" href="/in-comment"> -->
      <link rel=alternate type=application/feed+json href=feed.json title="A &amp; B">
      <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
      <link rel="alternate" type="application/rss+xml" href="feed.json">
      <link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/2">
      <link rel="alternate" hreflang="de" href="/de/">
    </head><body>${'<div>'.repeat(100_000)}`;
    expect(discoverFeeds(html, 'https://site.example/x/')).toEqual([
      { url: 'https://site.example/x/feed.json', title: 'A & B', type: 'json' },
    ]);
  });
});

describe('feed probe limits', () => {
  let peer: HttpPeer;
  beforeAll(async () => {
    peer = await new HttpPeer((req, res) => {
      if (req.path === '/slow') return; // never answers
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('x'.repeat(4096));
    }).start();
  });
  afterAll(() => peer.stop());

  it('times out and bounds the body like the scraper', async () => {
    const probe = new HttpFeedProbe(new HttpFetcher({ timeoutMs: 300, maxBytes: 1024 }));
    expect(await probe.probe(`${peer.url}/slow`)).toMatchObject({
      kind: 'problem',
      httpStatus: null,
      problem: { code: 'timeout', message: 'timed out after 300 ms' },
    });
    expect(await probe.probe(`${peer.url}/big`)).toMatchObject({
      kind: 'problem',
      problem: { code: 'too_large' },
    });
  });
});
