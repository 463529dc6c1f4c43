import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { compileDist, initializedDataDir, startServiceProcess } from '../helpers/service-process.js';

const RECORDER = fileURLToPath(new URL('./fixtures/record-modules.mjs', import.meta.url));
const INTL_RECORDER = fileURLToPath(new URL('./fixtures/record-intl.mjs', import.meta.url));

/**
 * Packages an idle `npm start` (all roles, PGlite, nothing configured) must not have loaded: each is
 * loaded by the first call that needs it (docs/decisions/0148-idle-memory-lazy-modules.md and 0003).
 * A static import of one of them anywhere on the start-up path puts it back in the idle process.
 */
const LOADED_ON_FIRST_USE = [
  '@modelcontextprotocol/sdk', // POST /mcp
  'zod', // the MCP tools' input schemas
  'feedsmith', // OPML import/export, feed parsing
  'fast-xml-parser', // the same
  '@opentelemetry/core', // tracing or metrics configured
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-metrics',
  'openai', // a model provider called
  'nodemailer', // a mail sent
  '@resvg/resvg-js', // a report cover rendered
  'sanitize-html', // an article read
  'ioredis', // REDIS_URL
  'iconv-lite', // a feed or page in another charset than UTF-8
];

describe('idle npm start', () => {
  const dirs: string[] = [];
  const children = new Set<ChildProcessWithoutNullStreams>();
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it("has not loaded the modules that are loaded on first use, nor made ICU's date or word-break services", async () => {
    await compileDist();
    // initialized, as the idle figure is measured (the first start's initdb runs in a child process)
    const dataDir = await initializedDataDir('ai-idle-');
    dirs.push(dataDir);
    const record = join(dataDir, 'modules.txt');
    const intlRecord = join(dataDir, 'intl.txt');
    const svc = startServiceProcess(
      ['--import', RECORDER, '--import', INTL_RECORDER, 'dist/main.js', 'all'],
      {
        DATA_DIR: dataDir,
        API_PORT: '0',
        PORT: '0',
        API_HOST: '127.0.0.1',
        HOST: '127.0.0.1',
        DATABASE_URL: '',
        REDIS_URL: '',
        MONITOR_OTLP_ENDPOINT: '',
        METRICS_COLLECTOR: 'false',
        RECORD_MODULES_TO: record,
        RECORD_INTL_TO: intlRecord,
        // a server on UTC: its schedules' zone is known without ICU (time-zone.ts)
        TZ: 'UTC',
      },
      children,
    );
    await svc.waitFor('process.started', 120_000);
    // the scheduler's and workers' first ticks
    await new Promise((r) => setTimeout(r, 2000));
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);

    const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
    const packageOf = (path: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
    // a file of the bundle in dist/ holds the packages esbuild put in it (its metafile's inputs);
    // the packages left external are loaded from node_modules under their own names
    const meta = JSON.parse(readFileSync('dist/.bundle-meta.json', 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const bundled = (url: string) => {
      const file = /\/dist\/([^/]+\.js)$/.exec(url)?.[1];
      return file ? Object.keys(meta.outputs[`dist/${file}`]?.inputs ?? {}) : [];
    };
    const packages = new Set(
      urls
        .flatMap((url) => [url, ...bundled(url)])
        .map(packageOf)
        .filter(Boolean),
    );
    // the recorder saw the start-up path (a recorder that saw nothing would pass anything), in the
    // bundle (fastify) and outside it (PGlite)
    expect(urls.some((u) => u.endsWith('/dist/main.js'))).toBe(true);
    expect(packages).toContain('fastify');
    expect(packages).toContain('@electric-sql/pglite');
    expect(LOADED_ON_FIRST_USE.filter((p) => packages.has(p))).toEqual([]);
    // the scheduler put its schedules in the queue (cron-parser and luxon ran) without a DateTimeFormat,
    // and the Chinese word segmenter waits for the first Chinese text
    expect(packages).toContain('cron-parser');
    expect(readFileSync(intlRecord, 'utf8').split('\n').filter(Boolean)).toEqual([]);
  }, 180_000);
});
