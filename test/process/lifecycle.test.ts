import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDist } from '../helpers/service-process.js';
import { killAll, startService } from './service-process.js';

// the service runs as `npm start` runs it, from dist/ (compiled once per test run)
beforeAll(() => compileDist(), 300_000);

/** The real entry point as `npm start` runs it: start on the embedded defaults, serve, stop on a signal. */
describe('process lifecycle', () => {
  const dirs: string[] = [];
  afterAll(() => {
    // a failed test must not leave a service running
    killAll();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('starts on the embedded defaults, serves /health within 30 s, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ai-start-'));
    dirs.push(dataDir);
    const started = Date.now();
    const svc = startService('all', {
      DATA_DIR: dataDir,
      API_PORT: '0',
      PORT: '0',
      API_HOST: '127.0.0.1',
      HOST: '127.0.0.1',
    });
    const listening = await svc.waitFor('api.listening', 30_000);
    const url = String(listening.url);
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(30_000);
    // the web role may first build a stale SPA; /health is served before that
    await svc.waitFor('process.started', 90_000);

    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    expect(svc.lines.some((l) => l.event === 'process.stopped')).toBe(true);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 150_000);

  it('refuses to start with a bad configuration and lists every problem', async () => {
    const svc = startService('api', { API_PORT: 'eighty', DEPLOYMENT_ENVIRONMENT: 'staging' });
    expect(await svc.exited).toBe(1);
    expect(svc.stderr()).toContain('API_PORT');
    expect(svc.stderr()).toContain('DEPLOYMENT_ENVIRONMENT');
  }, 30_000);
});
