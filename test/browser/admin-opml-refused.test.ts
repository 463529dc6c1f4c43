import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sources, topics } from '../../src/infrastructure/db/schema/index.js';
import { VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

/** An OPML file with intranet feeds: the preview shows each refusal; a ticked host is imported. */
let env: BrowserEnv;
const db = () => env.api.container.database.db;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

const FILE = {
  name: 'intranet.opml',
  mimeType: 'text/x-opml',
  buffer: Buffer.from(`<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>
<outline text="Intranet">
<outline type="rss" text="Build server" xmlUrl="http://127.0.0.1:8080/builds.rss"/>
<outline type="rss" text="Cloud metadata" xmlUrl="http://169.254.169.254/latest/meta-data/"/>
<outline type="rss" text="Public feed" xmlUrl="http://93.184.216.34/feed.xml"/>
</outline></body></opml>`),
};

const TEXT = {
  en: {
    preview: 'Preview import',
    confirm: 'Confirm import',
    loopback: 'loopback (this machine) address',
    metadata: 'link-local (cloud metadata) address',
    allow: 'Import anyway (127.0.0.1)',
  },
  'zh-TW': {
    preview: '預覽匯入',
    confirm: '確認匯入',
    loopback: '迴路（本機）位址',
    metadata: '鏈路本地（雲端中繼資料）位址',
    allow: '仍然匯入（127.0.0.1）',
  },
} as const;

describe.sequential('admin: OPML feeds on internal addresses in Chromium', () => {
  for (const lang of ['en', 'zh-TW'] as const) {
    for (const device of ['desktop', 'phone'] as const) {
      it(`shows each refused feed with its reason and imports a host the admin ticks (${lang}, ${device})`, async () => {
        await db().delete(topics);
        const text = TEXT[lang];
        const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS[device] });
        if (lang === 'zh-TW') await page.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
        await page.goto('/admin/catalog');
        const s = page.locator('section[aria-labelledby="opml-title"]');
        await s.locator('input[type="file"]').setInputFiles(FILE);
        await s.getByRole('button', { name: text.preview }).click();
        const refused = s.getByTestId('opml-refused');
        await refused.waitFor();
        const rows = await refused.locator('tbody tr').allInnerTexts();
        expect(rows).toHaveLength(2);
        expect(rows[0]).toContain('Build server');
        expect(rows[0]).toContain(text.loopback);
        expect(rows[1]).toContain('Cloud metadata');
        expect(rows[1]).toContain(text.metadata);
        expect(await s.getByTestId('opml-sources').locator('tbody tr').count()).toBe(1);
        await refused.getByLabel(text.allow).check();
        expect(
          await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          ),
        ).toBeLessThanOrEqual(0);
        await page.evaluate(() => window.scrollTo(0, 0));
        await s.screenshot({
          path: await env
            .screenshot(page, `admin-opml-refused-${device}-${lang}`)
            .then((f) => f.replace(/\.png$/, '-section.png')),
        });

        await s.getByRole('button', { name: text.confirm }).click();
        await s.getByTestId('opml-result').waitFor();
        const stored = (await db().select({ url: sources.url }).from(sources)).map((r) => r.url).sort();
        expect(stored).toEqual(['http://127.0.0.1:8080/builds.rss', 'http://93.184.216.34/feed.xml']);
        await context.close();
      });
    }
  }
});
