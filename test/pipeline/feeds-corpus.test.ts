import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpPeer } from '../peers/http-peer.js';
import { decodeBody } from '../../src/infrastructure/feeds/charset.js';
import { FeedFormatError, parseFeed } from '../../src/infrastructure/feeds/feed-parser.js';
import { HttpFeedReader } from '../../src/infrastructure/feeds/feed-reader.js';
import { HttpFetcher } from '../../src/infrastructure/feeds/http-fetcher.js';

/** test/fixtures/feeds/SOURCES.md: origin and licence of each file, and how expected.json was read */
const dir = new URL('../fixtures/feeds/', import.meta.url);
interface Expected {
  file: string;
  baseUrl: string;
  contentType?: string;
  error?: string;
  items?: { title: string; url: string; published: string | null }[];
}
const corpus = JSON.parse(readFileSync(new URL('expected.json', dir), 'utf8')) as Expected[];
const bytes = (file: string) => readFileSync(new URL(file, dir));
const read = (e: Expected) => parseFeed(decodeBody(bytes(e.file), e.contentType).text, e.baseUrl);

describe('the real-world feed corpus', () => {
  it('holds real feeds of every kind, under 2 MB', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    const size = corpus.reduce((n, e) => n + bytes(e.file).byteLength, 0);
    expect(size).toBeLessThan(2 * 1024 * 1024);
  });

  it.each(corpus.filter((e) => e.items))('reads $file as the reference reading does', (e) => {
    const got = read(e).map((x) => ({
      title: x.title,
      url: x.url,
      published: x.publishedAt?.toISOString() ?? null,
    }));
    expect(got).toEqual(e.items);
    for (const x of got) expect(x.title).not.toMatch(/[\uFFFD<>]|&[a-z]+;/);
  });

  it.each(corpus.filter((e) => e.error))('refuses $file', (e) => {
    expect(() => read(e)).toThrow(new RegExp(e.error!));
  });

  it.each(corpus.filter((e) => e.items?.length && !e.file.endsWith('.json')))(
    'refuses $file cut in half as malformed, never as a shorter healthy feed',
    (e) => {
      const text = decodeBody(bytes(e.file), e.contentType).text;
      expect(() => parseFeed(text.slice(0, Math.floor(text.length / 2)), e.baseUrl)).toThrow(FeedFormatError);
    },
  );
});

describe('non-UTF-8 feeds over HTTP', () => {
  let peer: HttpPeer;
  const served: Record<string, [string, string]> = {
    // charset only in the HTTP header (the document has no XML declaration)
    '/uol': ['rss-parser/uolNoticias.rss', 'text/xml; charset=ISO-8859-1'],
    // charset only in the XML declaration
    '/1251': ['node-feedparser/iconv.xml', 'application/rss+xml'],
    '/latin1': ['rss-parser/encoding.rss', 'application/rss+xml'],
  };
  beforeAll(async () => {
    peer = await new HttpPeer((req, res) => {
      const [file, type] = served[req.path]!;
      res.writeHead(200, { 'content-type': type }).end(bytes(file));
    }).start();
  });
  afterAll(() => peer.stop());

  const titles = async (path: string) => {
    const res = await new HttpFeedReader(new HttpFetcher()).read({
      url: `${peer.url}${path}`,
      kind: 'rss',
      etag: null,
      lastModified: null,
    });
    if (res.notModified) throw new Error('unexpected 304');
    return res.entries.map((e) => e.title);
  };

  it('decodes by the header, then the XML declaration', async () => {
    const uol = await titles('/uol');
    expect(uol[0]).toBe('Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno');
    const ru = await titles('/1251');
    expect(ru[0]).toBe('В Бузулуке главные стройплощадки – детсад и Ледовый дворец');
    const pt = await titles('/latin1');
    expect(pt[0]).toBe('Mãe de utente é a nova presidente da Raríssimas');
    for (const t of [...uol, ...ru, ...pt]) expect(t).not.toContain('\uFFFD');
  });
});
