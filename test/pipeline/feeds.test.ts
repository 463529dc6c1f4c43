import { afterEach, describe, expect, it } from 'vitest';
import { HttpPeer } from '../peers/http-peer.js';
import { HttpFetcher } from '../../src/infrastructure/feeds/http-fetcher.js';
import { HttpFeedReader, HttpPageReader } from '../../src/infrastructure/feeds/feed-reader.js';
import { parseFeed } from '../../src/infrastructure/feeds/feed-parser.js';
import { OutboundGuard } from '../../src/infrastructure/http/outbound-guard.js';
import { arxivFeed, atomFeed, jsonFeed, makeItem, rssFeed } from '../helpers/pipeline-factories.js';

const peers: HttpPeer[] = [];
const serve = async (handler: ConstructorParameters<typeof HttpPeer>[0]) => {
  const p = await new HttpPeer(handler).start();
  peers.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
});

const source = (url: string, etag: string | null = null, lastModified: string | null = null) => ({
  url,
  kind: 'rss' as const,
  etag,
  lastModified,
});

describe('feed parsing', () => {
  const item = makeItem({ doi: '10.5555/abc.123', content: '<p>Full <b>text</b> here.</p>' });

  it('reads RSS 2.0 with content:encoded, dc:creator and a DOI', () => {
    const [e] = parseFeed(rssFeed([item]), 'https://news.example.org/feed');
    expect(e).toMatchObject({
      url: item.url,
      title: item.title,
      author: 'A. Researcher',
      doi: '10.5555/abc.123',
    });
    expect(e!.content).toContain('<b>text</b>');
    expect(e!.publishedAt?.toISOString()).toBe(new Date(item.published!).toISOString());
  });

  it('reads Atom and JSON Feed into the same entries', () => {
    const atom = parseFeed(atomFeed([item]), 'https://x.example/');
    const json = parseFeed(jsonFeed([item]), 'https://x.example/');
    for (const [e] of [atom, json])
      expect(e).toMatchObject({ url: item.url, title: item.title, author: 'A. Researcher' });
  });

  it('reads the arXiv API: id without version, DOI, authors, categories', () => {
    const [e] = parseFeed(
      arxivFeed([
        {
          id: '2411.01234',
          title: 'Graph  transformers\n at scale',
          summary: 'We scale them.',
          doi: '10.1000/xyz',
        },
      ]),
      'http://export.arxiv.org/api/query',
    );
    expect(e).toMatchObject({
      url: 'http://arxiv.org/abs/2411.01234v2',
      title: 'Graph transformers at scale',
      arxivId: '2411.01234',
      doi: '10.1000/xyz',
      author: 'Ada Lovelace, Alan Turing',
      categories: ['cs.LG'],
    });
  });

  it('refuses what is not a feed', () => {
    expect(() => parseFeed('<html><body>hi</body></html>', 'https://x.example/')).toThrow(/not an RSS/);
    expect(() => parseFeed('{"title": 1}', 'https://x.example/')).toThrow(/items/);
  });
});

describe('feed fetching', () => {
  it('sends a conditional GET with the stored ETag and Last-Modified and reports 304 as not modified', async () => {
    const body = rssFeed([makeItem()]);
    const peer = await serve((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"', 'last-modified': 'Mon, 02 Nov 2026 10:00:00 GMT' }).end(body);
    });
    const reader = new HttpFeedReader(new HttpFetcher());
    const first = await reader.read(source(`${peer.url}/f`));
    expect(first).toMatchObject({
      notModified: false,
      status: 200,
      etag: '"v1"',
      lastModified: 'Mon, 02 Nov 2026 10:00:00 GMT',
    });
    const second = await reader.read(source(`${peer.url}/f`, '"v1"', 'Mon, 02 Nov 2026 10:00:00 GMT'));
    expect(second).toEqual({ notModified: true, status: 304 });
    expect(peer.requests[1]!.headers['if-modified-since']).toBe('Mon, 02 Nov 2026 10:00:00 GMT');
  });

  it('follows redirects up to the bound and no further', async () => {
    const peer = await serve((req, res) => {
      const hop = Number(req.path.slice(1));
      if (hop < 10) return void res.writeHead(302, { location: `/${hop + 1}` }).end();
      res.writeHead(200).end(rssFeed([makeItem()]));
    });
    const fetcher = new HttpFetcher({ maxRedirects: 3 });
    await expect(fetcher.get(`${peer.url}/7`)).resolves.toMatchObject({ status: 200, url: `${peer.url}/10` });
    await expect(fetcher.get(`${peer.url}/0`)).rejects.toThrow(/more than 3 redirects/);
  });

  it('refuses a body over the size limit, declared or streamed', async () => {
    const big = 'x'.repeat(64 * 1024);
    const peer = await serve((req, res) => {
      if (req.path === '/declared')
        return void res.writeHead(200, { 'content-length': String(big.length) }).end(big);
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      res.write(big);
      res.end(big);
    });
    const fetcher = new HttpFetcher({ maxBytes: 32 * 1024 });
    await expect(fetcher.get(`${peer.url}/declared`)).rejects.toThrow(/larger than 32768 bytes/);
    await expect(fetcher.get(`${peer.url}/chunked`)).rejects.toThrow(/larger than 32768 bytes/);
  });

  it('gives up after the timeout', async () => {
    const peer = await serve(() => undefined); // never answers
    await expect(new HttpFetcher({ timeoutMs: 200 }).get(`${peer.url}/slow`)).rejects.toThrow(
      /timed out after 200 ms/,
    );
  });

  it('sends at most `perHost` requests to one host at a time', async () => {
    let active = 0;
    let peak = 0;
    const peer = await serve(async (_req, res) => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 30));
      active--;
      res.writeHead(200).end('ok');
    });
    const fetcher = new HttpFetcher({ perHost: 2 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => fetcher.get(`${peer.url}/${i}`)));
    expect(peak).toBe(2);
    expect(peer.requests).toHaveLength(8);
  });

  it('reads the title and text of a page, without scripts or navigation', async () => {
    const peer = await serve((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          '<html><head><title>A &amp; B</title><script>var x=1</script></head><body><nav>Menu</nav><article><p>First point.</p><p>Second point.</p></article></body></html>',
        );
    });
    const page = await new HttpPageReader(new HttpFetcher({}, new OutboundGuard(['127.0.0.1']))).read(
      `${peer.url}/p`,
    );
    expect(page).toEqual({ title: 'A & B', text: 'First point. Second point.' });
  });

  it('refuses a page that is not HTML or text', async () => {
    const peer = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7 binary');
    });
    const reader = new HttpPageReader(new HttpFetcher({}, new OutboundGuard(['127.0.0.1'])));
    await expect(reader.read(`${peer.url}/paper.pdf`)).rejects.toThrow(
      /not an HTML page \(application\/pdf\)/,
    );
  });
});
