import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The real entry point as `npm start` runs it: start on the embedded defaults, serve, stop on a signal. */
const children = new Set<ChildProcessWithoutNullStreams>();

function startService(role: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', role], {
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as unknown as ChildProcessWithoutNullStreams;
  children.add(child);
  child.on('exit', () => children.delete(child));
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        /* not a log line */
      }
    }
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (event: string, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const hit = lines.find((l) => l.event === event);
      if (hit) return hit;
      if (child.exitCode !== null) throw new Error(`exited early (${child.exitCode}): ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${event} within ${timeoutMs} ms; stderr: ${stderr}`);
  };
  return { child, lines, exited, waitFor, stderr: () => stderr };
}

describe('process lifecycle', () => {
  const dirs: string[] = [];
  afterAll(() => {
    // a failed test must not leave a service running
    for (const c of children) c.kill('SIGKILL');
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
