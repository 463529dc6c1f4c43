/**
 * Dashboard load (budget in docs/performance.md: with a 100 ms upstream, every panel filled <= 1 s after
 * navigation): headless Chromium against the whole service started as `npm start` starts it (api,
 * web and worker roles, PGlite, the built SPA), whose MONITOR_* point at a Loki/Tempo-speaking peer
 * answering every query after 100 ms. The figure is the slowest of several navigations to
 * /admin/monitoring, from `goto` until every panel of the Operations tab reports data
 * (`data-state="ok"`), each in a fresh browser context, so the lazy chunk and the panel catalog are
 * fetched again. The first navigation (cold server paths) is reported apart in the notes.
 *
 * Rounds (bench/types.ts `Rounds`): the warm navigations are the rounds, and since the budget holds
 * for every navigation, it is judged on the worst of them (`judged: 'max'`: the figure is the
 * rounds' max, not their median, which the notes and the table give beside it); the cold first
 * navigation must be within the budget too.
 *
 * The browser is the browser tests' choice (decision 0155): Chromium's headless shell where it is
 * installed, which is what Playwright itself runs for `headless: true`, else the full browser; the
 * notes name which one ran. Until session 35 this scenario kept the full browser; on the 2-vCPU
 * bench machine its headless mode spent ~2.2 s of CPU across its processes a navigation, three
 * times the shell's 0.74 s, nearly all in its own browser process (a fresh browser context with a
 * blank page alone costs it ~0.4 s, the shell under 10 ms), so that work, on two cores shared with
 * the service, set the figure: same page, same minute, median 1,143-1,299 ms against 554-590 ms
 * in the shell (docs/performance.md, session 35).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Scenario } from '../types.js';
import { roundsOf } from '../rounds.js';
import { monitorEnv, storePeer } from '../../test/peers/monitoring-store-peer.js';

const BUDGET_MS = 1000;
/** Playwright's own browser for headless runs, as Debian packages it (test/helpers/chromium.ts) */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = '/usr/bin/chromium';
const UPSTREAM_MS = 100;
const ADMIN = { email: 'bench-admin@example.com', password: 'bench-password-123' };

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export const scenarios: Scenario[] = [
  {
    name: 'dashboard',
    async run(ctx) {
      const executablePath = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;
      if (!existsSync(executablePath))
        throw new Error(
          `${HEADLESS_SHELL} and ${CHROMIUM} are missing (apt-get install -y chromium-headless-shell)`,
        );
      const store = storePeer();
      store.setDelay(UPSTREAM_MS);
      await store.peer.start();
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-dash-'));
      const [apiPort, webPort] = [await freePort(), await freePort()];
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'all'], {
        env: {
          ...process.env,
          ...monitorEnv(store.peer.url),
          DATA_DIR: dataDir,
          API_PORT: String(apiPort),
          PORT: String(webPort),
          API_HOST: '127.0.0.1',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          DATABASE_URL: '',
          REDIS_URL: '',
          AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const webUrl = `http://127.0.0.1:${webPort}`;
      const browser = await chromium.launch({
        executablePath,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
      });
      const times: number[] = [];
      let panels = 0;
      try {
        const until = Date.now() + 180_000;
        for (;;) {
          if (child.exitCode !== null) throw new Error('service exited during start-up');
          const up = await fetch(`${webUrl}/api/session`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(ADMIN),
          }).catch(() => undefined);
          if (up?.ok) break;
          if (Date.now() > until) throw new Error(`service not ready: ${up?.status ?? 'no answer'}`);
          await new Promise((r) => setTimeout(r, 500));
        }
        const runs = ctx.quick ? 3 : 8;
        for (let i = 0; i < runs; i++) {
          const context = await browser.newContext({ baseURL: webUrl });
          const login = await context.request.post('/api/session', { data: ADMIN });
          if (!login.ok()) throw new Error(`login: ${login.status()}`);
          const page = await context.newPage();
          const t0 = performance.now();
          await page.goto('/admin/monitoring?interval=600');
          await page.waitForFunction(
            () => {
              const els = [...document.querySelectorAll('[data-panel]')];
              return els.length > 0 && els.every((e) => e.getAttribute('data-state') === 'ok');
            },
            undefined,
            { timeout: 15_000, polling: 'raf' },
          );
          times.push(performance.now() - t0);
          panels = await page.locator('[data-panel]').count();
          await context.close();
        }
      } finally {
        await browser.close().catch(() => {});
        child.kill('SIGTERM');
        if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
        rmSync(dataDir, { recursive: true, force: true });
        await store.peer.stop();
      }
      const [first, ...rest] = times;
      const o = roundsOf(rest, 'figure', 0, 'max');
      return [
        {
          scenario: 'dashboard',
          figure: o.max,
          unit: 'ms',
          budget: `every panel filled <= ${BUDGET_MS} ms after navigation (${UPSTREAM_MS} ms upstream)`,
          rounds: o,
          pass: o.max <= BUDGET_MS && first! <= BUDGET_MS,
          notes: `${panels} Operations panels, npm start roles on PGlite, ${executablePath === HEADLESS_SHELL ? "Chromium's headless shell" : 'the full Chromium (chromium-headless-shell is not installed)'}; worst of ${o.n} navigations ${o.max} ms, median ${o.median} ms; first (cold) navigation ${Math.round(first!)} ms`,
        },
      ];
    },
  },
];
