import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

const BUDGET = 200 * 1024;
let env: BrowserEnv;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('production bundle', () => {
  it('loads under 200 KB of gzipped JavaScript for the initial route (/articles)', async () => {
    const { page, context } = await env.newContext();
    const scripts = new Map<string, number>();
    page.on('response', async (res) => {
      if (res.request().resourceType() !== 'script') return;
      const body = await res.body().catch(() => Buffer.alloc(0));
      scripts.set(new URL(res.url()).pathname, gzipSync(body, { level: 9 }).length);
    });
    await page.goto('/articles', { waitUntil: 'networkidle' });
    await context.close();
    const total = [...scripts.values()].reduce((a, b) => a + b, 0);

    // the same figure from the build itself: the entry script and what it preloads
    const html = readFileSync(join(ROOT, 'web', 'dist', 'index.html'), 'utf8');
    const entry = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    const built = entry
      .map((p) => gzipSync(readFileSync(join(ROOT, 'web', 'dist', p)), { level: 9 }).length)
      .reduce((a, b) => a + b, 0);

    writeFileSync(
      join(ROOT, 'test-results', 'bundle-size.json'),
      JSON.stringify(
        {
          route: '/articles',
          gzip_bytes: total,
          entry_gzip_bytes: built,
          scripts: Object.fromEntries(scripts),
        },
        null,
        2,
      ),
    );
    console.log(`initial route JavaScript: ${(total / 1024).toFixed(1)} KB gzip (${scripts.size} files)`);
    expect(scripts.size).toBeGreaterThan(0);
    expect(built).toBeGreaterThan(0);
    expect(total).toBeLessThan(BUDGET);
    expect(built).toBeLessThan(BUDGET);
  });
});
