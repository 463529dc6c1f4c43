import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildWebServer } from '../../../src/web/web-server.js';
import { ensureSpaBuilt } from '../../../src/web/spa-build.js';
import { SESSION_COOKIE } from '../../../src/web/session-cookie.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../helpers/chromium.js';
import type { DbKind } from '../../helpers/db.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per test worker, launched on first use: the files a worker runs one after another
 * share it as they share the loaded modules (isolate: false), each with contexts of its own, which
 * its env closes. A launch is ~0.7 s of CPU and 0.4 s of wall time; the suite started 78 envs.
 * Chromium ends with the worker (playwright's pipe to it closes); a browser that crashed or was
 * closed is launched again by the next env.
 */
function sharedBrowser(): Promise<Browser> {
  if (!shared) {
    const launching = chromium
      .launch({ executablePath: CHROMIUM_EXECUTABLE, headless: true, args: CHROMIUM_ARGS })
      .then((browser) => {
        browser.on('disconnected', () => {
          if (shared === launching) shared = undefined;
        });
        return browser;
      });
    launching.catch(() => {
      if (shared === launching) shared = undefined;
    });
    shared = launching;
  }
  return shared;
}

const cdpSessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * A PNG of the page (the whole scrollable page with `fullPage`, else what the viewport shows),
 * written to `file`: the picture Playwright's `page.screenshot` takes (the same DevTools call and
 * pixels), encoded for speed. Playwright's default encoding is most of a full-page screenshot's
 * cost to the browser: 0.62 against 0.33 CPU-s for a 1366x9916 page (ten of each), and the browser
 * files take ~250 pictures a run. The files are ~20 % larger; pictures kept in the repository
 * (docs/screenshots) are taken with `compact`, Playwright's own encoding. Element pictures are
 * small: they keep Playwright's `locator.screenshot`.
 */
export async function capturePng(
  page: Page,
  file: string,
  opts: { fullPage?: boolean; compact?: boolean } = {},
): Promise<string> {
  if (opts.compact) {
    await page.screenshot({ path: file, fullPage: opts.fullPage });
    return file;
  }
  // as Playwright does before its picture: the fonts loaded, then a frame drawn after them
  const view = await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const root = document.documentElement;
    return {
      x: window.scrollX,
      y: window.scrollY,
      width: root.clientWidth,
      height: root.clientHeight,
      fullWidth: Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0),
      fullHeight: Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0),
    };
  });
  // in document coordinates, as Playwright gives them
  const clip = opts.fullPage
    ? { x: 0, y: 0, width: view.fullWidth, height: view.fullHeight }
    : { x: view.x, y: view.y, width: view.width, height: view.height };
  let cdp = cdpSessions.get(page);
  if (!cdp) {
    cdp = page.context().newCDPSession(page);
    cdpSessions.set(page, cdp);
  }
  const { data } = await (
    await cdp
  ).send('Page.captureScreenshot', {
    format: 'png',
    optimizeForSpeed: true,
    captureBeyondViewport: true,
    clip: { ...clip, scale: 1 },
  });
  writeFileSync(file, Buffer.from(data, 'base64'));
  return file;
}

/** The built app's entry script (its file name in web/dist/assets). Call it after `startBrowserEnv`. */
export function entryScript(): string {
  return /src="\/assets\/([^"]+\.js)"/.exec(
    readFileSync(join(ROOT, 'web', 'dist', 'index.html'), 'utf8'),
  )![1]!;
}

/**
 * The built monitoring dashboard's own chunk (the file with its panels' markup that this build's
 * entry imports; earlier builds' chunks stay for pages still open on them), for a test to hold back.
 * Call it after `startBrowserEnv`, which builds the app.
 */
export function dashboardChunk(): string {
  const dist = join(ROOT, 'web', 'dist');
  const entry = entryScript();
  const entryCode = readFileSync(join(dist, 'assets', entry), 'utf8');
  const chunk = readdirSync(join(dist, 'assets')).find(
    (f) =>
      f.endsWith('.js') &&
      entryCode.includes(f) &&
      readFileSync(join(dist, 'assets', f), 'utf8').includes('data-panel'),
  );
  if (!chunk) throw new Error('no dashboard chunk in web/dist/assets');
  return chunk;
}

export interface BrowserEnv {
  /** the real api on PGlite (inject, container, login) */
  api: TestApp;
  apiUrl: string;
  /** the web role serving web/dist, forwarding /api/proxy to the api */
  webUrl: string;
  /** the worker's shared Chromium: contexts opened on it are closed with the env */
  browser: Browser;
  /** a fresh context (own cookies), optionally signed in as a new user or admin */
  newContext(opts?: { as?: 'user' | 'admin'; viewport?: { width: number; height: number } }): Promise<{
    context: BrowserContext;
    page: Page;
    user?: { id: string; token: string };
  }>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * One real api (PGlite + memory cache), the web role on port 0 serving the built SPA, and Debian's
 * Chromium through playwright-core (one per worker, shared by its files). `env` goes to the api's
 * config (e.g. MONITOR_* for a peer); `db` picks the database (PGlite unless asked, as in
 * buildTestApp).
 */
export async function startBrowserEnv(
  opts: { env?: Record<string, string>; db?: DbKind } = {},
): Promise<BrowserEnv> {
  await ensureSpaBuilt(ROOT, pino({ level: 'warn' }));
  const api = await buildTestApp({ env: opts.env, db: opts.db });
  // as the worker role does: a source added while a run is under way gets its queued first read
  for (const w of api.container.workers.filter((w) => w.name === 'source-first-fetch')) await w.ready?.();
  const apiUrl = await api.app.listen({ port: 0, host: '127.0.0.1' });
  const web: FastifyInstance = await buildWebServer(pino({ level: 'silent' }), {
    apiUrl,
    trustedProxies: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
    timeoutMs: 30_000,
    distDir: join(ROOT, 'web', 'dist'),
    secureCookie: false,
  });
  const webUrl = await web.listen({ port: 0, host: '127.0.0.1' });
  const browser = await sharedBrowser();
  // an earlier file's contexts are closed by its env; whatever this file opens is closed by this one
  const earlier = new Set(browser.contexts());
  mkdirSync(SCREENSHOTS, { recursive: true });

  return {
    api,
    apiUrl,
    webUrl,
    browser,
    async newContext({ as, viewport = VIEWPORTS.desktop } = {}) {
      const context = await browser.newContext({ baseURL: webUrl, viewport, locale: 'en-US' });
      let user: { id: string; token: string } | undefined;
      if (as) {
        const session = await api.login(as);
        user = { id: session.id, token: session.token };
        await context.addCookies([
          { name: SESSION_COOKIE, value: session.token, url: webUrl, httpOnly: true, sameSite: 'Lax' },
        ]);
      }
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return { context, page, user };
    },
    async screenshot(page, name) {
      return capturePng(page, join(SCREENSHOTS, `${name}.png`), { fullPage: true });
    },
    async close() {
      const mine = browser.contexts().filter((c) => !earlier.has(c));
      await Promise.all(mine.map((c) => c.close().catch(() => {})));
      await web.close();
      await api.close();
    },
  };
}
