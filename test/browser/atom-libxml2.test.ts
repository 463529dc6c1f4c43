import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../helpers/chromium.js';
import { makeArticle, makeTopic, tagArticle } from '../helpers/article-factories.js';
import { insertReport } from '../helpers/report-factories.js';

/**
 * Chromium's XML parser (libxml2, a conforming, non-validating XML 1.0 parser) reads our Atom feeds
 * with hostile stored text: a model's tag `a<b`, quotes, `]]>`, entities written as text, control
 * characters. A parse error shows as a <parsererror> element, which the negative control proves.
 */
const HOSTILE = [
  'a<b',
  'Tom & "Jerry" \'s <tag>',
  'ends ]]> here',
  '&amp; &#0; &bogus;',
  'ctrl\u0001\u000b\u001fend',
  '\ud800 lone',
];

async function parse(page: Page, xml: string) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const error = doc.getElementsByTagName('parsererror')[0];
    const ns = 'http://www.w3.org/2005/Atom';
    return {
      error: error?.textContent ?? null,
      titles: [...doc.getElementsByTagNameNS(ns, 'entry')].map(
        (e) => e.getElementsByTagNameNS(ns, 'title')[0]?.textContent ?? '',
      ),
      terms: [...doc.getElementsByTagNameNS(ns, 'category')].map((c) => c.getAttribute('term')),
    };
  }, xml);
}

describe('Atom feeds read by libxml2 (Chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let topic: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const db = t.container.database.db;
    topic = (await makeTopic(db, { name: 'Topic <&> "]]>"' })).id;
    for (const [i, s] of HOSTILE.entries()) {
      const a = await makeArticle(db, {
        topicId: topic,
        title: s,
        summary: s,
        scrapedAt: new Date(i * 1000),
      });
      await tagArticle(db, a, ['a<b', `${i} "q" & ]]>`]);
    }
    await insertReport(db, { topicId: topic, weekStartDate: '2026-01-05', title: HOSTILE.join(' ') });
    browser = await chromium.launch({
      executablePath: CHROMIUM_EXECUTABLE,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('parses the topic feed and the reports feed without an error, with the text as written', async () => {
    const list = await t.app.inject({ method: 'GET', url: `/feeds/topics/${topic}.atom?sort=scraped_at` });
    const parsed = await parse(page, list.body);
    expect(parsed.error).toBeNull();
    expect(parsed.titles.sort()).toEqual(
      [
        'a<b',
        'Tom & "Jerry" \'s <tag>',
        'ends ]]> here',
        '&amp; &#0; &bogus;',
        'ctrlend',
        '\ufffd lone',
      ].sort(),
    );
    expect(parsed.terms).toContain('a<b');
    expect(parsed.terms).toContain('0 "q" & ]]>');

    const reports = await t.app.inject({ method: 'GET', url: `/feeds/reports/${topic}.atom` });
    expect((await parse(page, reports.body)).error).toBeNull();
  });

  it('reports an error for a document that is not well-formed (the check can fail)', async () => {
    for (const bad of ['<feed><category term="a<b"/></feed>', '<feed>\u0001</feed>', '<feed>a & b</feed>'])
      expect((await parse(page, bad)).error, bad).not.toBeNull();
  });
});
