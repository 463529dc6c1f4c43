import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { HttpPeer, sendJson, type RecordedRequest } from '../peers/http-peer.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle } from '../helpers/article-factories.js';
import {
  citationUserAgent,
  CrossrefSource,
  OpenAlexSource,
  SemanticScholarSource,
} from '../../src/infrastructure/citations/citation-sources.js';
import { RateLimitedError } from '../../src/infrastructure/citations/citation-http.client.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { loadConfig } from '../../src/config.js';

const SICI = '10.1002/(SICI)1097-0185(19990415)257:2<73::AID-AR8>3.0.CO;2-B';
/** a SICI DOI whose check character is `#`: unencoded, it would end the path */
const SICI_HASH = '10.1002/(SICI)1521-4141(199901)29:01<1::AID-IMMU1>3.0.CO;2-#';
const MAILTO = 'ops@example.org';
const UA = citationUserAgent('9.9.9', MAILTO);
const fast = { requestsPerSecond: 1000, userAgent: UA, backoffMs: 10 };

interface Seen extends RecordedRequest {
  at: number;
}

type Known = Map<string, number | null>;

/** A citation API on loopback: knows some ids, and plays queued failures before answering. */
function citationPeer(answer: (req: RecordedRequest, known: Known) => unknown) {
  const known: Known = new Map();
  const failures: { status: number; headers?: Record<string, string>; hang?: boolean }[] = [];
  const seen: Seen[] = [];
  const peer = new HttpPeer((req, res) => {
    seen.push({ ...req, at: Date.now() });
    const failure = failures.shift();
    if (failure?.hang) return; // never answers
    if (failure) return sendJson(res, failure.status, { error: 'busy' }, failure.headers);
    const body = answer(req, known);
    if (body === undefined) return sendJson(res, 404, {});
    sendJson(res, 200, body);
  });
  return { peer, known, failures, seen };
}

describe('citation clients against API peers on loopback', () => {
  const s2 = citationPeer((req, known) => {
    if (req.method === 'POST') {
      const ids = (req.json() as { ids: string[] }).ids;
      return ids.map((id) => (known.has(id) ? { paperId: id, citationCount: known.get(id) } : null));
    }
    const id = decodeURIComponent(req.path.replace('/graph/v1/paper/', ''));
    return known.has(id) ? { paperId: 'p', citationCount: known.get(id) } : undefined;
  });
  const oa = citationPeer((req, known) => {
    const id = decodeURIComponent(req.path.replace('/works/', ''));
    return known.has(id) ? { id: 'W1', cited_by_count: known.get(id) } : undefined;
  });
  const cr = citationPeer((req, known) => {
    const id = decodeURIComponent(req.path.replace('/works/', ''));
    return known.has(id) ? { message: { 'is-referenced-by-count': known.get(id) } } : undefined;
  });
  const peers = [s2, oa, cr];

  beforeAll(async () => {
    await Promise.all(peers.map((p) => p.peer.start()));
  });
  afterAll(async () => {
    await Promise.all(peers.map((p) => p.peer.stop()));
  });
  beforeEach(() => {
    for (const p of peers) {
      p.known.clear();
      p.failures.length = 0;
      p.seen.length = 0;
    }
  });

  const semanticScholar = (opts = {}) =>
    new SemanticScholarSource(s2.peer.url, { ...fast, apiKey: 's2-key', ...opts });

  it('Semantic Scholar: x-api-key and User-Agent sent, a SICI DOI percent-encoded in the path', async () => {
    s2.known.set(`DOI:${SICI}`, 12);
    expect(await semanticScholar().citations({ doi: SICI, arxivId: null })).toBe(12);
    const [req] = s2.seen;
    expect(req!.path).toBe(
      '/graph/v1/paper/DOI:10.1002/(SICI)1097-0185(19990415)257%3A2%3C73%3A%3AAID-AR8%3E3.0.CO%3B2-B',
    );
    // externalIds rides along for works (the DOI and arXiv id of one paper): no extra request
    expect(req!.query.get('fields')).toBe('citationCount,externalIds');
    expect(req!.headers['x-api-key']).toBe('s2-key');
    expect(req!.headers['user-agent']).toBe('article-intel/9.9.9 (mailto:ops@example.org)');

    // no key configured: no header at all
    s2.seen.length = 0;
    await new SemanticScholarSource(s2.peer.url, fast).citations({ doi: SICI, arxivId: null });
    expect(s2.seen[0]!.headers).not.toHaveProperty('x-api-key');
  });

  it('Semantic Scholar: a DOI it does not know is asked again by arXiv id', async () => {
    s2.known.set('ARXIV:2401.01234', 7);
    const source = semanticScholar();
    expect(await source.citations({ doi: '10.1000/unknown', arxivId: '2401.01234' })).toBe(7);
    expect(s2.seen.map((r) => r.path)).toEqual([
      '/graph/v1/paper/DOI:10.1000/unknown',
      '/graph/v1/paper/ARXIV:2401.01234',
    ]);
    // a DOI it knows is not asked again, even without a count
    s2.seen.length = 0;
    s2.known.set('DOI:10.1000/known', null);
    expect(await source.citations({ doi: '10.1000/known', arxivId: '2401.01234' })).toBeNull();
    expect(s2.seen).toHaveLength(1);
  });

  it('Semantic Scholar batch: POST /graph/v1/paper/batch, 500 ids a request, arXiv ids for unknown DOIs', async () => {
    const list = Array.from({ length: 1201 }, (_, i) => ({
      doi: i % 3 === 2 ? null : `10.5555/b-${i}`,
      arxivId: i % 3 === 0 ? null : `2401.${String(i).padStart(5, '0')}`,
    }));
    list.forEach((ids, i) => {
      // DOIs ending in 7 are unknown by DOI; their arXiv id is known
      if (ids.doi && i % 10 !== 7) s2.known.set(`DOI:${ids.doi}`, i);
      if (ids.arxivId) s2.known.set(`ARXIV:${ids.arxivId}`, 100_000 + i);
    });
    const values = await semanticScholar().citationsBatch(list);

    const expected = list.map((ids, i) => {
      if (ids.doi && i % 10 !== 7) return i;
      return ids.arxivId ? 100_000 + i : null;
    });
    expect(values).toEqual(expected);
    const bodies = s2.seen.map((r) => (r.json() as { ids: string[] }).ids);
    const unknownWithArxiv = list.filter((ids, i) => ids.doi && ids.arxivId && i % 10 === 7).length;
    expect(bodies.map((b) => b.length)).toEqual([500, 500, 201, unknownWithArxiv]);
    for (const r of s2.seen) {
      expect([r.method, r.path, r.query.get('fields')]).toEqual([
        'POST',
        '/graph/v1/paper/batch',
        'citationCount,externalIds',
      ]);
      expect(r.headers['x-api-key']).toBe('s2-key');
      expect(r.headers['content-type']).toBe('application/json');
    }
    expect(bodies[0]!.slice(0, 3)).toEqual(['DOI:10.5555/b-0', 'DOI:10.5555/b-1', 'ARXIV:2401.00002']);
    expect(bodies[3]!.every((id) => id.startsWith('ARXIV:'))).toBe(true);
  });

  it('Semantic Scholar batch: an answer that does not line up with the ids is an error', async () => {
    const source = new SemanticScholarSource(s2.peer.url, fast);
    const odd = new HttpPeer((_req, res) => sendJson(res, 200, [{ citationCount: 1 }]));
    await odd.start();
    try {
      const broken = new SemanticScholarSource(odd.url, fast);
      await expect(
        broken.citationsBatch([
          { doi: '10.1/a', arxivId: null },
          { doi: '10.1/b', arxivId: null },
        ]),
      ).rejects.toThrow(/does not match the 2 ids/);
    } finally {
      await odd.stop();
    }
    expect(await source.citationsBatch([])).toEqual([]);
    expect(s2.seen).toHaveLength(0);
  });

  it('OpenAlex: mailto parameter, encoded DOI, and the arXiv DOI when the DOI is unknown', async () => {
    oa.known.set(`doi:10.48550/arXiv.2402.05678`, 9);
    oa.known.set(`doi:${SICI}`, 4);
    const source = new OpenAlexSource(oa.peer.url, { ...fast, mailto: MAILTO });
    expect(await source.citations({ doi: '10.1000/unknown', arxivId: '2402.05678' })).toBe(9);
    expect(await source.citations({ doi: SICI, arxivId: null })).toBe(4);
    expect(oa.seen.map((r) => [r.path, r.query.get('mailto')])).toEqual([
      ['/works/doi:10.1000/unknown', MAILTO],
      ['/works/doi:10.48550/arXiv.2402.05678', MAILTO],
      ['/works/doi:10.1002/(SICI)1097-0185(19990415)257%3A2%3C73%3A%3AAID-AR8%3E3.0.CO%3B2-B', MAILTO],
    ]);
    // without CITATION_MAILTO: no parameter
    oa.seen.length = 0;
    await new OpenAlexSource(oa.peer.url, fast).citations({ doi: SICI, arxivId: null });
    expect([...oa.seen[0]!.query.keys()]).toEqual([]);
    // an arXiv DOI it does not know is not asked twice
    oa.seen.length = 0;
    expect(await source.citations({ doi: '10.48550/arxiv.2402.99999', arxivId: '2402.99999' })).toBeNull();
    expect(oa.seen).toHaveLength(1);
  });

  it('Crossref: User-Agent with mailto; "#" and "." segments of a DOI stay inside the path', async () => {
    cr.known.set(SICI_HASH, 3);
    const source = new CrossrefSource(cr.peer.url, fast);
    expect(await source.citations({ doi: SICI_HASH, arxivId: null })).toBe(3);
    expect(cr.seen[0]!.path).toBe(
      '/works/10.1002/(SICI)1521-4141(199901)29%3A01%3C1%3A%3AAID-IMMU1%3E3.0.CO%3B2-%23',
    );
    expect(cr.seen[0]!.headers['user-agent']).toBe(UA);

    const walker = '10.1000/../../admin';
    cr.known.set(walker, 1);
    expect(await source.citations({ doi: walker, arxivId: null })).toBe(1);
    expect(cr.seen[1]!.path).toBe('/works/10%2E1000%2F%2E%2E%2F%2E%2E%2Fadmin');
  });

  it('honours 429 Retry-After in seconds, and holds back the other lookups of the same API', async () => {
    s2.known.set('DOI:10.1000/busy', 5);
    s2.known.set('DOI:10.1000/other', 6);
    s2.failures.push({ status: 429, headers: { 'retry-after': '1' } });
    const source = semanticScholar();
    const first = source.citations({ doi: '10.1000/busy', arxivId: null });
    while (s2.seen.length < 1) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100));
    // asked while the API's Retry-After runs: waits for it as well
    const other = await source.citations({ doi: '10.1000/other', arxivId: null });
    expect([await first, other]).toEqual([5, 6]);
    const t = s2.seen.map((r) => r.at - s2.seen[0]!.at);
    expect(s2.seen).toHaveLength(3);
    expect(Math.min(t[1]!, t[2]!)).toBeGreaterThanOrEqual(950);
  });

  it('honours 429 Retry-After given as an HTTP date', async () => {
    s2.known.set('DOI:10.1000/busy', 5);
    // HTTP dates have whole seconds: the wait is between 0.5 s and 1.5 s
    s2.failures.push({ status: 429, headers: { 'retry-after': new Date(Date.now() + 1500).toUTCString() } });
    expect(await semanticScholar().citations({ doi: '10.1000/busy', arxivId: null })).toBe(5);
    expect(s2.seen).toHaveLength(2);
    expect(s2.seen[1]!.at - s2.seen[0]!.at).toBeGreaterThanOrEqual(450);
  });

  it('a Retry-After beyond the bound ends the lookup at once and pauses the client until then', async () => {
    s2.failures.push({ status: 429, headers: { 'retry-after': '3600' } });
    const source = semanticScholar({ maxRetryAfterMs: 5_000 });
    const started = Date.now();
    await expect(source.citations({ doi: '10.1000/x', arxivId: null })).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    await expect(source.citationsBatch([{ doi: '10.1000/x', arxivId: null }])).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(s2.seen).toHaveLength(1);
  });

  it('bounds the time and the size of an answer', async () => {
    cr.failures.push({ status: 0, hang: true }, { status: 0, hang: true });
    const slow = new CrossrefSource(cr.peer.url, { ...fast, timeoutMs: 200, maxAttempts: 2 });
    const started = Date.now();
    await expect(slow.citations({ doi: '10.1000/slow', arxivId: null })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(cr.seen).toHaveLength(2);

    const huge = JSON.stringify({ message: { 'is-referenced-by-count': 1, pad: 'x'.repeat(2 << 20) } });
    for (const chunked of [false, true]) {
      const big = new HttpPeer((_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(chunked ? {} : { 'content-length': String(Buffer.byteLength(huge)) }),
        });
        res.end(huge);
      });
      await big.start();
      try {
        const source = new CrossrefSource(big.url, fast);
        await expect(source.citations({ doi: '10.1000/big', arxivId: null })).rejects.toThrow(/more than/);
        expect(big.requests).toHaveLength(1);
      } finally {
        await big.stop();
      }
    }
  });
});

describe('metric refresh: the batch endpoint when many articles are due (pglite)', () => {
  let t: TestApp;
  const known = new Map<string, number | null>();
  const s2Down: number[] = [];
  const s2 = new HttpPeer((req, res) => {
    const down = s2Down.shift();
    if (down) return sendJson(res, down, { error: 'down' }, { 'retry-after': '0' });
    if (req.method === 'POST') {
      const ids = (req.json() as { ids: string[] }).ids;
      return sendJson(
        res,
        200,
        ids.map((id) => (known.has(id) ? { paperId: id, citationCount: known.get(id) } : null)),
      );
    }
    const id = decodeURIComponent(req.path.replace('/graph/v1/paper/', ''));
    if (!known.has(id)) return sendJson(res, 404, {});
    sendJson(res, 200, { citationCount: known.get(id) });
  });
  const oaKnown = new Map<string, number>();
  const openAlex = new HttpPeer((req, res) => {
    const id = decodeURIComponent(req.path.replace('/works/', ''));
    if (!oaKnown.has(id)) return sendJson(res, 404, {});
    sendJson(res, 200, { cited_by_count: oaKnown.get(id) });
  });
  const notFound = new HttpPeer((_req, res) => sendJson(res, 404, {}));
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;

  beforeAll(async () => {
    await Promise.all([s2.start(), openAlex.start(), notFound.start()]);
    t = await buildTestApp({
      env: {
        SEMANTIC_SCHOLAR_API_URL: s2.url,
        OPENALEX_API_URL: openAlex.url,
        CROSSREF_API_URL: notFound.url,
        CITATION_REQUESTS_PER_SECOND: '1000',
        SEMANTIC_SCHOLAR_API_KEY: 'configured-key',
        CITATION_MAILTO: MAILTO,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([s2.stop(), openAlex.stop(), notFound.stop()]);
  });

  it('asks 1001 due articles in two batches of 500 and one single lookup, arXiv ids for unknown DOIs', async () => {
    const db = t.container.database.db;
    const first = await makeArticle(db, { doi: '10.1000/many-0', arxivId: '2405.00000' });
    await db.execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title, doi, arxiv_id)
      select ${first.topicId}, 'Bulk', 'https://many.example.test/' || g, 'https://many.example.test/' || g,
             'Many ' || g, 'many ' || g, '10.1000/many-' || g, '2405.' || lpad(g::text, 5, '0')
      from generate_series(1, 1000) g`);
    // every tenth DOI is unknown to Semantic Scholar; its arXiv id is known
    for (let i = 0; i <= 1000; i++) {
      if (i % 10 === 3) known.set(`ARXIV:2405.${String(i).padStart(5, '0')}`, 10_000 + i);
      else known.set(`DOI:10.1000/many-${i}`, i);
    }

    const summary = await t.container.batch.metricRefresh.run();
    expect(summary).toMatchObject({ articles: 1001, updated: 1001, failed: 0 });
    expect(summary.by_source).toEqual({ semantic_scholar: 1001 });

    // per page of 500 (in id order, so the unknown DOIs fall anywhere): one batch of DOIs, then one
    // of the arXiv ids of its unknown DOIs; the last page holds one article, looked up alone
    const bodies = s2.requests
      .filter((r) => r.method === 'POST')
      .map((r) => (r.json() as { ids: string[] }).ids);
    const gets = s2.requests.filter((r) => r.method === 'GET').map((r) => decodeURIComponent(r.path));
    expect(bodies.filter((ids) => ids[0]!.startsWith('DOI:')).map((ids) => ids.length)).toEqual([500, 500]);
    const byArxiv = [...bodies.flat(), ...gets].filter((id) => id.includes('ARXIV:'));
    expect(byArxiv).toHaveLength(100);
    expect(gets.filter((id) => id.includes('DOI:'))).toHaveLength(1);
    for (const r of s2.requests) {
      expect(r.headers['x-api-key']).toBe('configured-key');
      expect(r.headers['user-agent']).toBe(`article-intel/${version} (mailto:${MAILTO})`);
    }
    const [row] = rowsOf<{ n: number | string; s: number | string }>(
      await db.execute(sql`
        select count(*) as n, sum(value) as s from article_metrics
        where metric_key = 'citation_count' and source = 'semantic_scholar'`),
    );
    const expectedSum = Array.from({ length: 1001 }, (_, i) => (i % 10 === 3 ? 10_000 + i : i)).reduce(
      (a, b) => a + b,
    );
    expect([Number(row!.n), Number(row!.s)]).toEqual([1001, expectedSum]);
  });

  it('a failed batch counts as that source failing: the next source answers, no single retries', async () => {
    const db = t.container.database.db;
    const topicId = (await makeArticle(db, { doi: '10.2000/down-0' })).topicId;
    for (let i = 1; i < 6; i++) await makeArticle(db, { topicId, doi: `10.2000/down-${i}` });
    for (let i = 0; i < 6; i++) oaKnown.set(`doi:10.2000/down-${i}`, 20 + i);
    s2.requests.length = 0;
    s2Down.push(500, 500, 500, 500);

    const summary = await t.container.batch.metricRefresh.run();
    expect(summary).toMatchObject({ articles: 6, updated: 6, failed: 0, by_source: { openalex: 6 } });
    expect(s2.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
    expect(openAlex.requests).toHaveLength(6);
  });
});

describe('citation configuration', () => {
  it('takes CITATION_MAILTO only as an e-mail address', () => {
    const base = { AUTH_SECRET: 'x'.repeat(32) };
    expect(
      loadConfig({ ...base, CITATION_MAILTO: MAILTO, SEMANTIC_SCHOLAR_API_KEY: 'k' }).citations,
    ).toMatchObject({
      mailto: MAILTO,
      semanticScholarApiKey: 'k',
    });
    expect(() => loadConfig({ ...base, CITATION_MAILTO: 'ops@example.org\r\nX-Injected: 1' })).toThrow(
      /CITATION_MAILTO/,
    );
  });
});
