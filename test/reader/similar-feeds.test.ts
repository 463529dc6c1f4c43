import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { parseFeed } from '@rowanmanning/feed-parser';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, setMetric, type ArticleRow } from '../helpers/article-factories.js';
import { insertReport } from '../helpers/report-factories.js';

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
type Node = Record<string, unknown>;

/**
 * The structural requirements of RFC 4287 on a feed document: atom:feed in the Atom namespace with
 * exactly one id, title and updated, an author (on the feed or on every entry), at most one
 * alternate link per type; each entry with exactly one id, title and updated, a link or content,
 * and a summary when its content is out of line. Dates are RFC 3339, ids absolute IRIs, unique.
 */
function checkAtom(xml: string): Node[] {
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
  }).parse(xml) as Node;
  const feed = doc.feed as Node;
  expect(feed, 'root element atom:feed').toBeDefined();
  expect(feed['@xmlns']).toBe(ATOM_NS);
  const text = (v: unknown) => (typeof v === 'object' && v ? String((v as Node)['#text'] ?? '') : String(v));
  for (const el of ['id', 'title', 'updated']) expect(asArray(feed[el]), `feed ${el}`).toHaveLength(1);
  expect(text(feed.updated)).toMatch(RFC3339);
  expect(() => new URL(text(feed.id))).not.toThrow();
  const links = asArray(feed.link as Node | Node[]);
  expect(links.filter((l) => l['@rel'] === 'self')).toHaveLength(1);
  expect(links.filter((l) => (l['@rel'] ?? 'alternate') === 'alternate').length).toBeLessThanOrEqual(1);
  const entries = asArray(feed.entry as Node | Node[]);
  const feedHasAuthor = asArray(feed.author).length > 0;
  const ids = new Set<string>();
  for (const e of entries) {
    for (const el of ['id', 'title', 'updated']) expect(asArray(e[el]), `entry ${el}`).toHaveLength(1);
    expect(text(e.updated)).toMatch(RFC3339);
    if (e.published !== undefined) expect(text(e.published)).toMatch(RFC3339);
    const id = text(e.id);
    expect(() => new URL(id)).not.toThrow();
    ids.add(id);
    expect(asArray(e.link).length > 0 || e.content !== undefined).toBe(true);
    if (!feedHasAuthor) expect(asArray(e.author).length).toBeGreaterThan(0);
    for (const a of asArray(e.author as Node | Node[])) expect(text(a.name)).not.toBe('');
  }
  expect(ids.size).toBe(entries.length);
  return entries;
}

describe.each(dbKinds())('similar articles and Atom feeds on %s', (kind) => {
  let t: TestApp;
  let topic: string;
  let other: string;
  let proteins: ArticleRow[];
  let weather: ArticleRow[];
  let twinElsewhere: ArticleRow;

  beforeAll(async () => {
    t = await buildTestApp({ db: kind, env: { PUBLIC_BASE_URL: 'https://reader.example.test' } });
    const db = t.container.database.db;
    topic = (await makeTopic(db, { name: 'Biology & <Weather>' })).id;
    other = (await makeTopic(db)).id;
    const at = (i: number) => new Date(Date.UTC(2026, 0, 2, 0, i));
    proteins = [];
    weather = [];
    for (let i = 0; i < 4; i++)
      proteins.push(
        await makeArticle(db, {
          topicId: topic,
          title: `Protein folding structure prediction ${i}`,
          summary: 'Protein structure prediction with deep folding networks and residue contacts.',
          scrapedAt: at(i),
          publishedAt: i === 0 ? null : at(i),
        }),
      );
    for (let i = 0; i < 4; i++)
      weather.push(
        await makeArticle(db, {
          topicId: topic,
          title: `Storm forecast rainfall ${i}`,
          summary: 'Weather radar rainfall and storm forecasts for the coming week.',
          scrapedAt: at(10 + i),
        }),
      );
    twinElsewhere = await makeArticle(db, {
      topicId: other,
      title: 'Protein folding structure prediction 0',
      summary: 'Protein structure prediction with deep folding networks and residue contacts.',
    });
    await setMetric(db, weather[1]!.id, 'citation_count', 7, 'crossref');
  });
  afterAll(() => t?.close());

  it('answers the nearest articles of the same topic by embedding, without itself', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/articles/${proteins[0]!.id}/similar` });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json<{ items: { id: string; topic_id: string }[] }>().items.map((i) => i.id);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(ids.length).toBeLessThanOrEqual(5);
    expect(ids).not.toContain(proteins[0]!.id);
    expect(ids).not.toContain(twinElsewhere.id);
    expect(new Set(ids.slice(0, 3))).toEqual(new Set(proteins.slice(1).map((p) => p.id)));
    const weatherSide = await t.app.inject({ method: 'GET', url: `/articles/${weather[0]!.id}/similar` });
    expect(
      new Set(
        weatherSide
          .json()
          .items.slice(0, 3)
          .map((i: { id: string }) => i.id),
      ),
    ).toEqual(new Set(weather.slice(1).map((w) => w.id)));
    // vectors are kept: a second call embeds nothing new
    const db = t.container.database.db;
    const { rowsOf } = await import('../../src/infrastructure/db/client.js');
    const { sql } = await import('drizzle-orm');
    const stored = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from article_embeddings`),
    );
    expect(Number(stored[0]!.n)).toBe(8);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/articles/00000000-0000-4000-8000-000000000000/similar',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("serves a topic's ranked list as Atom that an independent parser reads", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/feeds/topics/${topic}.atom?sort=scraped_at&order=desc`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/atom\+xml/);
    const entries = checkAtom(res.body);
    expect(entries).toHaveLength(8);
    const feed = parseFeed(res.body);
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toBe('Biology & <Weather>');
    expect(feed.self).toBe(
      `https://reader.example.test/feeds/topics/${topic}.atom?sort=scraped_at&order=desc`,
    );
    expect(feed.url).toBe(`https://reader.example.test/articles?topic=${topic}&sort=scraped_at&order=desc`);
    expect(feed.items.map((i) => i.url)).toEqual(
      [...weather]
        .reverse()
        .concat([...proteins].reverse())
        .map((a) => a.url),
    );
    expect(feed.items[0]!.title).toBe('Storm forecast rainfall 3');
    expect(feed.items.at(-1)!.published).toBeNull();

    const byCitations = await t.app.inject({
      method: 'GET',
      url: `/feeds/topics/${topic}.atom?sort=citation_count`,
    });
    expect(parseFeed(byCitations.body).items[0]!.url).toBe(weather[1]!.url);
    expect(
      (await t.app.inject({ method: 'GET', url: `/feeds/topics/${topic}.atom?sort=nope` })).statusCode,
    ).toBe(422);
    expect(
      (await t.app.inject({ method: 'GET', url: '/feeds/topics/00000000-0000-4000-8000-000000000000.atom' }))
        .statusCode,
    ).toBe(404);
  });

  it("serves a topic's weekly reports as Atom", async () => {
    const db = t.container.database.db;
    await insertReport(db, {
      topicId: topic,
      weekStartDate: '2026-01-05',
      title: 'Week one: folding ]]> <b>news</b>',
    });
    await insertReport(db, { topicId: topic, weekStartDate: '2026-01-12', title: 'Week two' });
    const res = await t.app.inject({ method: 'GET', url: `/feeds/reports/${topic}.atom` });
    expect(res.statusCode, res.body).toBe(200);
    expect(checkAtom(res.body)).toHaveLength(2);
    const feed = parseFeed(res.body);
    expect(feed.items.map((i) => i.title).sort()).toEqual(['Week one: folding ]]> <b>news</b>', 'Week two']);
    expect(feed.items.map((i) => i.url)).toContain(
      `https://reader.example.test/reports?topic=${topic}&week=2026-01-12`,
    );
    const empty = await t.app.inject({ method: 'GET', url: `/feeds/reports/${other}.atom` });
    expect(checkAtom(empty.body)).toHaveLength(0);
  });
});
