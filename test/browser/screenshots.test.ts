import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { seedReaderData, type ReaderData } from './helpers/seed.js';

let env: BrowserEnv;
let data: ReaderData;

beforeAll(async () => {
  env = await startBrowserEnv();
  data = await seedReaderData(env.api.container.database.db);
});
afterAll(async () => {
  await env?.close();
});

const pages = (d: ReaderData) => [
  { name: 'articles', path: `/articles?topic=${d.topic.id}`, as: undefined, heading: 'Articles' },
  { name: 'article-detail', path: `/articles/${d.high.id}`, as: undefined, heading: d.high.title },
  { name: 'reports', path: `/reports?topic=${d.topic.id}`, as: undefined, heading: 'Weekly reports' },
  { name: 'login', path: '/login', as: undefined, heading: 'Sign in' },
  { name: 'register', path: '/register', as: undefined, heading: 'Create an account' },
  { name: 'settings', path: '/settings', as: 'user' as const, heading: 'Settings' },
  { name: 'admin-metrics', path: '/admin/metrics', as: 'admin' as const, heading: 'Metric catalog' },
  { name: 'admin-tags', path: '/admin/tags', as: 'admin' as const, heading: 'Tags' },
  {
    name: 'admin-catalog',
    path: '/admin/catalog',
    as: 'admin' as const,
    heading: 'Topics, sources and providers',
  },
  { name: 'admin-jobs', path: '/admin/jobs', as: 'admin' as const, heading: 'Jobs' },
];

describe.sequential('screenshots of the main pages', () => {
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    it(`renders every main page at ${width} width without horizontal scrolling`, async () => {
      // one context per role and width: pages of the same role share the session
      const contexts = {
        guest: await env.newContext({ viewport }),
        user: await env.newContext({ as: 'user', viewport }),
        admin: await env.newContext({ as: 'admin', viewport }),
      };
      for (const p of pages(data)) {
        const { page } = contexts[p.as ?? 'guest'];
        await page.goto(p.path);
        await expect.poll(() => page.locator('main h1').first().innerText()).toBe(p.heading);
        await page.waitForLoadState('networkidle');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${p.name} overflows at ${width}`).toBeLessThanOrEqual(0);
        await env.screenshot(page, `${p.name}-${width}`);
      }
      for (const c of Object.values(contexts)) await c.context.close();
    });
  }

  it('switches the interface to Traditional Chinese', async () => {
    const { page, context } = await env.newContext({ viewport: VIEWPORTS.phone });
    await page.goto(`/articles?topic=${data.topic.id}`);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByLabel('Language').selectOption('zh-TW');
    await expect.poll(() => page.locator('main h1').innerText()).toBe('文章');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-TW');
    await env.screenshot(page, 'articles-zh-TW-phone');
    await context.close();
  });
});
