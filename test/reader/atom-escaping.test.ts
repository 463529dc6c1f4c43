import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '@rowanmanning/feed-parser';
import { parseAtomFeed } from 'feedsmith';
import { FeedAtomWriter } from '../../src/infrastructure/feeds/atom-writer.js';
import type { AtomFeed } from '../../src/application/articles/articles.ports.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle, makeTopic, tagArticle } from '../helpers/article-factories.js';
import { insertReport } from '../helpers/report-factories.js';
import { xmlProblem } from '../helpers/strict-xml.js';

/** What a model or a feed may hand us: markup, entities, CDATA ends, quotes, controls, surrogates. */
const HOSTILE = [
  'a<b',
  'Tom & "Jerry" \'s <tag>',
  'ends ]]> here',
  '<![CDATA[ x ]]>',
  '&amp; &lt; &#0; &#x1; &bogus;',
  'ctrl\u0001\u0008\u000b\u000c\u001f\ufffe\uffffend',
  'lone \ud800 and \udfff, a pair \ud83d\ude00',
  '<script>alert(1)</script>',
];
/** the same text as a reader must get it: characters XML cannot carry dropped, lone surrogates U+FFFD */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const expected = (s: string) => s.replace(/[\uD800-\uDFFF]/gu, '\uFFFD').replace(NOT_XML, '');

const text = (v: unknown): string =>
  typeof v === 'string' ? v : String((v as { value?: string } | undefined)?.value ?? '');

describe('the strict XML check (it fails where a conforming parser fails)', () => {
  it.each([
    ['<a x="a<b"/>', '"<" in an attribute'],
    ['<a>a<b</a>', 'bad start tag'],
    ['<a>a & b</a>', 'bare "&"'],
    ['<a>]]></a>', '"]]>" in character data'],
    ['<a>\u0001</a>', 'character U+0001'],
    ['<a>&#1;</a>', 'illegal character'],
    ['<a>&nbsp;</a>', 'undeclared entity'],
    ['<a x="1" x="2"/>', 'repeated attribute'],
    ['<a/><b/>', 'second root'],
    ['<a><b></a>', 'unexpected end tag'],
  ])('refuses %s', (xml, problem) => {
    expect(xmlProblem(xml)).toContain(problem);
  });

  it('accepts a well-formed document', () => {
    expect(
      xmlProblem(
        '<?xml version="1.0" encoding="utf-8"?>\n<a x="&lt;&#x10000;"><!-- c --><![CDATA[<]]>t&amp;</a>',
      ),
    ).toBeNull();
  });
});

describe('FeedAtomWriter escapes every text and attribute', () => {
  const feed: AtomFeed = {
    id: 'https://reader.example.test/feeds/topics/x.atom?a=1&b="2"',
    title: HOSTILE.join(' | '),
    subtitle: HOSTILE.join('\n'),
    updated: new Date('2026-01-05T00:00:00Z'),
    selfUrl: 'https://reader.example.test/feeds/topics/x.atom?a=1&b=<2>',
    pageUrl: 'https://reader.example.test/articles?topic=x&q=\'"<>',
    entries: HOSTILE.map((s, i) => ({
      id: `urn:uuid:00000000-0000-4000-8000-00000000000${i}`,
      title: s,
      url: `https://news.example.test/a?i=${i}&s="<x>'&t=\u0001`,
      updated: new Date(Date.UTC(2026, 0, 1, i)),
      published: new Date(Date.UTC(2026, 0, 1, i)),
      summary: `summary ${s}`,
      contentHtml: `<p>content ${s.replace(/[<>&]/g, '')}</p>`,
      authors: [`author ${s}`],
      categories: [s, `${s} 2`],
    })),
  };

  it('writes a well-formed document that two feed reader libraries read back exactly', async () => {
    const xml = await new FeedAtomWriter().write(feed);
    expect(xmlProblem(xml)).toBeNull();

    // this reader decodes HTML entities in text constructs once more (as many readers do): the
    // literal text "&amp;" is the one string it cannot show as written
    const literal = (s: string) => !s.includes('&amp;');
    const read = parseFeed(xml);
    expect(read.items).toHaveLength(HOSTILE.length);
    HOSTILE.forEach((s, i) => {
      const item = read.items[i]!;
      if (literal(s)) expect(item.title, s).toBe(expected(s));
      // it normalises URLs the WHATWG way
      expect(item.url, s).toBe(new URL(expected(feed.entries[i]!.url)).href);
      expect(
        item.categories.map((c) => c.term),
        s,
      ).toEqual([expected(s), expected(`${s} 2`)]);
      if (literal(s))
        expect(
          item.authors.map((a) => a.name),
          s,
        ).toEqual([expected(`author ${s}`)]);
    });

    const atom = parseAtomFeed(xml);
    expect(text(atom.title)).toBe(expected(feed.title));
    expect(text(atom.subtitle)).toBe(expected(feed.subtitle!));
    expect(atom.links?.map((l) => l.href)).toEqual([expected(feed.selfUrl), expected(feed.pageUrl)]);
    HOSTILE.forEach((s, i) => {
      const entry = atom.entries![i]!;
      expect(text(entry.title), s).toBe(expected(s));
      expect(text(entry.summary), s).toBe(expected(`summary ${s}`));
      expect(text(entry.content), s).toBe(expected(feed.entries[i]!.contentHtml!));
      expect(
        entry.categories?.map((c) => c.term),
        s,
      ).toEqual([expected(s), expected(`${s} 2`)]);
      expect(
        entry.categories?.map((c) => c.label),
        s,
      ).toEqual([expected(s), expected(`${s} 2`)]);
    });
  });

  it('keeps tabs and line breaks of text and attributes', async () => {
    const xml = await new FeedAtomWriter().write({
      ...feed,
      entries: [{ ...feed.entries[0]!, title: 'one\r\ntwo\tthree', categories: ['x\ty\r\nz'] }],
    });
    expect(xmlProblem(xml)).toBeNull();
    const entry = parseAtomFeed(xml).entries![0]!;
    expect(text(entry.title)).toBe('one\r\ntwo\tthree');
    expect(entry.categories?.[0]?.term).toBe('x\ty\r\nz');
  });
});

describe('Atom feeds over HTTP: hostile stored text, inactive topics', () => {
  let t: TestApp;
  let topic: string;
  let admin: { headers: Record<string, string> };

  beforeAll(async () => {
    t = await buildTestApp({ env: { PUBLIC_BASE_URL: 'https://reader.example.test' } });
    admin = await t.login('admin');
    const db = t.container.database.db;
    // NUL is refused by the database itself; everything else of HOSTILE is stored as given
    topic = (await makeTopic(db, { name: 'Topic <&> "]]>"', description: HOSTILE.join(' ') })).id;
    for (const [i, s] of HOSTILE.entries()) {
      const a = await makeArticle(db, {
        topicId: topic,
        title: s,
        summary: `summary ${s}`,
        scrapedAt: new Date(Date.UTC(2026, 0, 1, i)),
      });
      await tagArticle(db, a, [s.toLowerCase(), 'a<b']);
    }
    await insertReport(db, { topicId: topic, weekStartDate: '2026-01-05', title: HOSTILE.join(' ') });
  });
  afterAll(() => t?.close());

  it("serves the topic's list and reports with a model's tag `a<b` as well-formed Atom", async () => {
    const res = await t.app.inject({ method: 'GET', url: `/feeds/topics/${topic}.atom?sort=scraped_at` });
    expect(res.statusCode, res.body).toBe(200);
    expect(xmlProblem(res.body)).toBeNull();
    const read = parseFeed(res.body);
    expect(read.title).toBe('Topic <&> "]]>"');
    for (const item of read.items) expect(item.categories.map((c) => c.term)).toContain('a<b');
    // what the database keeps of each string (a lone surrogate is stored as U+FFFD)
    const atom = parseAtomFeed(res.body);
    expect(atom.entries!.map((e) => text(e.title)).sort()).toEqual(HOSTILE.map(expected).sort());

    const reports = await t.app.inject({ method: 'GET', url: `/feeds/reports/${topic}.atom` });
    expect(reports.statusCode).toBe(200);
    expect(xmlProblem(reports.body)).toBeNull();
    expect(text(parseAtomFeed(reports.body).entries![0]!.title)).toBe(expected(HOSTILE.join(' ')));
  });

  it('answers 404 for both feeds of an inactive topic, and serves them again once it is active', async () => {
    const setActive = async (isActive: boolean) => {
      const r = await t.app.inject({
        method: 'PATCH',
        url: `/admin/topics/${topic}`,
        headers: admin.headers,
        payload: { is_active: isActive },
      });
      expect(r.statusCode, r.body).toBe(200);
    };
    await setActive(false);
    for (const url of [`/feeds/topics/${topic}.atom`, `/feeds/reports/${topic}.atom`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('topic_not_found');
    }
    await setActive(true);
    for (const url of [`/feeds/topics/${topic}.atom`, `/feeds/reports/${topic}.atom`])
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });
});
