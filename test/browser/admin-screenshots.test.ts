import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { scraperRuns } from '../../src/infrastructure/db/schema/index.js';
import { makeArticle, makeSource, setMetric } from '../helpers/article-factories.js';
import { link, makeGroup, makeTag } from '../helpers/tag-factories.js';
import { monitorEnv, storePeer } from '../peers/monitoring-store-peer.js';
import { capturePng, ROOT, startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { seedReaderData } from './helpers/seed.js';

/**
 * Screenshots of every admin page in en and zh-TW (desktop; phone for a few), for the README.
 * `UPDATE_SCREENSHOTS=1 npx vitest run --project browser test/browser/admin-screenshots.test.ts`
 * writes them to docs/screenshots/admin-<page>-<lang>[-phone].png (commit them); without the variable
 * they go to a temporary directory, so a plain test run never changes the repository.
 */
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const OUT = UPDATE ? join(ROOT, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'admin-screenshots-'));
const LANGS = ['en', 'zh-TW'] as const;
type Lang = (typeof LANGS)[number];

interface Shot {
  name: string;
  path: string;
  /** on a phone too */
  phone?: boolean;
  /** the page has drawn what the shot is for */
  ready?: (page: Page) => Promise<boolean>;
}

const panelStates = (page: Page) =>
  page.locator('[data-panel]').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
const allPanels = (state: string) => async (page: Page) => {
  const s = await panelStates(page);
  return s.length >= 3 && s.every((x) => x === state);
};

/** Pages of the instance without monitoring stores. */
const PLAIN: Shot[] = [
  { name: 'catalog', path: '/admin/catalog', phone: true },
  { name: 'tags', path: '/admin/tags' },
  { name: 'metrics', path: '/admin/metrics' },
  { name: 'jobs', path: '/admin/jobs', phone: true },
  { name: 'users', path: '/admin/users', phone: true },
  {
    name: 'monitoring-setup',
    path: '/admin/monitoring?tab=operations&interval=0',
    ready: async (page) =>
      (await page.getByTestId('setup-card').count()) === 1 && (await allPanels('not-configured')(page)),
  },
  {
    name: 'monitoring-service',
    path: '/admin/monitoring?tab=service&interval=0',
    phone: true,
    ready: async (page) => (await page.locator('[data-panel="svc-coverage"]').count()) === 1,
  },
  { name: 'settings', path: '/settings', phone: true },
];
/** Pages of the instance reading loopback Prometheus/Loki/Tempo peers. */
const MONITORED: Shot[] = [
  {
    name: 'monitoring-operations',
    path: '/admin/monitoring?tab=operations&interval=0',
    phone: true,
    ready: allPanels('ok'),
  },
  { name: 'monitoring-logs', path: '/admin/monitoring?tab=logs&interval=0', ready: allPanels('ok') },
  { name: 'monitoring-traces', path: '/admin/monitoring?tab=traces&interval=0', ready: allPanels('ok') },
  { name: 'monitoring-metrics', path: '/admin/monitoring?tab=metrics&interval=0', ready: allPanels('ok') },
];

async function shoot(env: BrowserEnv, shots: Shot[]): Promise<string[]> {
  const written: string[] = [];
  for (const lang of LANGS)
    for (const [device, viewport] of [
      ['desktop', VIEWPORTS.desktop],
      ['phone', VIEWPORTS.phone],
    ] as const) {
      const { page, context } = await env.newContext({ as: 'admin', viewport });
      await context.addInitScript((l: Lang) => localStorage.setItem('locale', l), lang);
      for (const shot of shots) {
        if (device === 'phone' && !shot.phone) continue;
        await page.goto(shot.path);
        await expect.poll(() => page.locator('main h1').first().isVisible(), { timeout: 15_000 }).toBe(true);
        await page.waitForLoadState('networkidle');
        if (shot.ready) await expect.poll(() => shot.ready!(page), { timeout: 15_000 }).toBe(true);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        const file = join(OUT, `admin-${shot.name}-${lang}${device === 'phone' ? '-phone' : ''}.png`);
        await capturePng(page, file, { fullPage: true, compact: UPDATE });
        written.push(file);
      }
      await context.close();
    }
  return written;
}

describe.sequential('screenshots of every admin page, en and zh-TW', () => {
  const store = storePeer();
  let plain: BrowserEnv;
  let monitored: BrowserEnv;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    plain = await startBrowserEnv();
    const db = plain.api.container.database.db;
    const data = await seedReaderData(db);
    const now = Date.now();
    const arxiv = await makeSource(db, {
      topicId: data.topic.id,
      name: 'arXiv quant-ph',
      lastFetchedAt: new Date(now - 600_000),
    });
    await makeSource(db, {
      topicId: data.topic.id,
      name: 'Lab blog',
      lastFetchedAt: new Date(now - 7_200_000),
      lastError: 'HTTP 404 Not Found',
    });
    const group = await makeGroup(db, data.topic.id, { name: 'methods', displayName: 'Methods' });
    const tags = [
      await makeTag(db, data.topic.id, 'error correction', group.id),
      await makeTag(db, data.topic.id, 'qubits', group.id),
      await makeTag(db, data.topic.id, 'superconducting'),
    ];
    for (const a of [data.high, data.mid, data.low])
      await link(db, a.id, ...tags.slice(0, 2).map((t) => t.id));
    for (let i = 0; i < 6; i++) {
      const a = await makeArticle(db, {
        topicId: data.topic.id,
        source: 'arXiv quant-ph',
        sourceId: arxiv.id,
      });
      if (i % 2 === 0) await setMetric(db, a.id, 'citation_count', 3 + i);
    }
    await db.insert(scraperRuns).values(
      Array.from({ length: 8 }, (_, i) => ({
        correlationId: `shot-run-${i}`,
        status: i === 2 ? ('failed' as const) : ('completed' as const),
        trigger: i % 3 === 0 ? 'cron' : 'admin',
        startedAt: new Date(now - i * 86_400_000 - 3_600_000),
        finishedAt: new Date(now - i * 86_400_000 - 3_540_000),
        counts: {
          sources: 2,
          discovered: 6 + 2 * i,
          published: 4 + i,
          duplicates: i,
          analysis_failed: i % 2,
        },
        summary: { sources: 2, discovered: 6 + 2 * i, published: 4 + i, duplicates: i },
        error: i === 2 ? 'every source failed' : null,
      })),
    );
    await store.peer.start();
    monitored = await startBrowserEnv({ env: monitorEnv(store.peer.url) });
  }, 120_000);

  afterAll(async () => {
    await plain?.close();
    await monitored?.close();
    await store.peer.stop();
  });

  it(`writes every admin page in en and zh-TW (desktop, phone for a few) to ${UPDATE ? 'docs/screenshots' : 'a temporary directory'}`, async () => {
    const written = [...(await shoot(plain, PLAIN)), ...(await shoot(monitored, MONITORED))];
    const pages = new Set([...PLAIN, ...MONITORED].map((s) => s.name));
    expect(written).toHaveLength(
      [...PLAIN, ...MONITORED].reduce((n, s) => n + (s.phone ? 2 : 1), 0) * LANGS.length,
    );
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const file of written) {
      expect(statSync(file).size, file).toBeGreaterThan(10_000);
      // the README links every one of them
      expect(readme, file).toContain(`docs/screenshots/${basename(file)}`);
    }
    expect([...pages].sort()).toEqual(
      [
        'catalog',
        'tags',
        'metrics',
        'jobs',
        'users',
        'monitoring-setup',
        'monitoring-service',
        'monitoring-operations',
        'monitoring-logs',
        'monitoring-traces',
        'monitoring-metrics',
        'settings',
      ].sort(),
    );
  }, 300_000);
});
