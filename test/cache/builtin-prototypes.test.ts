import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('./fixtures/prototype-probe.mts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

/**
 * The builtin prototypes V8 holds in dictionary mode once the modules are loaded, from a fresh
 * process (docs/decisions/0165-string-prototype-kept-fast.md).
 */
async function slowPrototypes(modules: string[], env: Record<string, string> = {}): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', PROBE, ...modules],
    { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
  );
  return (JSON.parse(stdout) as { slow: string[] }).slow;
}

describe('builtin prototypes in V8 fast mode', () => {
  it('ioredis on its own leaves String.prototype in dictionary mode (why the cache module fixes it)', async () => {
    // if this fails after an ioredis upgrade, its RESP decoder no longer subclasses String and
    // keepStringPrototypeFast can go
    expect(await slowPrototypes(['ioredis'])).toEqual(['String']);
  });

  it('the Redis cache module leaves String.prototype fast', async () => {
    expect(await slowPrototypes([src('infrastructure/cache/redis-cache.ts')])).toEqual([]);
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('and keeps it fast through a round trip to Redis', async () => {
    expect(await slowPrototypes([], { REDIS_PROBE_URL: process.env.TEST_REDIS_URL! })).toEqual([]);
  });

  it('the service and every package it loads on first use leave every builtin prototype fast', async () => {
    // a library that subclasses a builtin (as ioredis does String) would slow every call of that
    // builtin's methods in the whole process
    const slow = await slowPrototypes([
      src('composition/container.ts'),
      src('http/app.ts'),
      src('infrastructure/cache/redis-cache.ts'),
      src('infrastructure/tracing/otlp-telemetry.ts'),
      'openai',
      'nodemailer',
      '@resvg/resvg-js',
      'sanitize-html',
      'feedsmith',
      'fast-xml-parser',
      '@modelcontextprotocol/sdk/server/mcp.js',
      'zod',
      'iconv-lite',
      '@electric-sql/pglite',
      'pg-boss',
    ]);
    expect(slow).toEqual([]);
  }, 90_000);
});
