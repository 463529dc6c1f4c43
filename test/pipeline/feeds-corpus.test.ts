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

/**
 * A recorded arXiv API answer (arxiv.py's test fixture, SOURCES.md): the arXiv source kind reads
 * the identifiers, the DOIs of `arxiv:doi`, the first-version date and the authors of each entry.
 */
describe('a real arXiv API answer through the arXiv source reader', () => {
  const file = 'arxiv.py/search_query-au-del_maestro.xml';
  let peer: HttpPeer;
  beforeAll(async () => {
    peer = await new HttpPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/atom+xml; charset=utf-8' }).end(bytes(file));
    }).start();
  });
  afterAll(() => peer.stop());

  it('reads ids, DOIs, dates and authors of every entry', async () => {
    const res = await new HttpFeedReader(new HttpFetcher()).read({
      url: `${peer.url}/api/query?search_query=au:del_maestro`,
      kind: 'arxiv',
      etag: null,
      lastModified: null,
    });
    if (res.notModified) throw new Error('unexpected 304');
    const entries = res.entries;
    // the same titles, links and dates as the reference reading in expected.json
    const reference = corpus.find((e) => e.file === file)!.items!;
    expect(
      entries.map((e) => ({ title: e.title, url: e.url, published: e.publishedAt?.toISOString() })),
    ).toEqual(reference);
    // new-style and old-style (archive/number) identifiers, without their version
    expect(entries.map((e) => e.arxivId)).toEqual([
      '1201.4869',
      'cond-mat/0412498',
      'cond-mat/0603029',
      '1005.5383',
      '1303.6954',
      '1312.6177',
      '1412.6529',
      'cond-mat/0607501',
      'cond-mat/0702661',
      '0807.2873',
    ]);
    // arxiv:doi of each entry (DOIs are kept lower case, their comparison key), a suffix with a letter included
    expect(entries.map((e) => e.doi)).toEqual([
      '10.1142/s021797921244002x',
      '10.1103/physrevb.71.184511',
      '10.1103/physrevb.74.024520',
      '10.1103/physrevb.82.060515',
      '10.1103/physrevb.88.064512',
      '10.1103/physrevb.89.224502',
      '10.1103/physrevb.91.184507',
      '10.1103/physrevb.74.214517',
      '10.1103/physrevb.76.064418',
      '10.1016/j.aop.2008.08.003',
    ]);
    // a revised paper keeps the date of its first version (published), not of the revision (updated)
    const revised = entries.find((e) => e.arxivId === '1303.6954')!;
    expect(revised.publishedAt?.toISOString()).toBe('2013-03-27T20:00:04.000Z');
    expect(entries.map((e) => e.author)).toEqual([
      'Adrian Del Maestro',
      'Adrian Del Maestro, Subir Sachdev',
      'Adrian Del Maestro, Bernd Rosenow, Subir Sachdev',
      'Adrian Del Maestro, Ian Affleck',
      'B. Kulchytskyy, G. Gervais, A. Del Maestro',
      'C. M. Herdman, A. Rommal, A. Del Maestro',
      'C. M. Herdman, A. Del Maestro',
      'R. G. Melko, A. Del Maestro, A. A. Burkov',
      'Adrian Del Maestro, Michel J. P. Gingras',
      'Adrian Del Maestro, Bernd Rosenow, Subir Sachdev',
    ]);
    expect(entries[0]!.categories).toEqual(['cond-mat.mes-hall', 'cond-mat.other']);
    // the abstract is one line of plain text, entities decoded
    expect(entries[1]!.summary).toMatch(/^We present the theory .* \(p >= 3, integer\)\. For the case/);
    expect(entries.every((e) => e.summary && !e.summary.includes('\n'))).toBe(true);
  });
});
