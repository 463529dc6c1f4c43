import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServiceProcess } from '../helpers/service-process.js';

/**
 * Issue 15: a README CLI command started while `npm start` runs on the same DATA_DIR must never
 * open the embedded database a second time. It refuses with exit 2 and one line saying what to do;
 * the directory opens afterwards and a user created by the CLI then can sign in.
 */
const children = new Set<ChildProcessWithoutNullStreams>();
const AUTH_SECRET = 'cli-lock-secret-cli-lock-secret-0123456';

function startService(dataDir: string) {
  return startServiceProcess(
    ['--import', 'tsx', 'src/main.ts', 'all'],
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      AUTH_SECRET,
      API_PORT: '0',
      PORT: '0',
      API_HOST: '127.0.0.1',
      HOST: '127.0.0.1',
    },
    children,
  );
}

function cli(dataDir: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/jobs/cli.ts', ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      AUTH_SECRET,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

const login = (api: string, email: string, password: string) =>
  fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

describe('the CLI beside a running service on the same DATA_DIR (PGlite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ai-cli-lock-'));
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses user:create and scrape with exit 2 and a one-line message; afterwards the directory opens and the user signs in', async () => {
    const svc = startService(dataDir);
    const api = String((await svc.waitFor('api.listening', 60_000)).url);
    await svc.waitFor('process.started', 120_000);
    const lock = JSON.parse(readFileSync(join(dataDir, 'pglite.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(svc.child.pid);

    const email = 'cli-made@example.test';
    const password = 'a-long-password';
    const create = await cli(dataDir, ['user:create', '--email', email, '--password', password, '--admin']);
    expect(create.code).toBe(2);
    expect(create.stderr.trim().split('\n')).toHaveLength(1);
    expect(create.stderr).toContain(`the service (pid ${svc.child.pid}) holds the database in DATA_DIR`);
    expect(create.stderr).toContain('ADMIN_EMAIL');
    const scrape = await cli(dataDir, ['scrape']);
    expect(scrape.code).toBe(2);
    expect(scrape.stderr.trim().split('\n')).toHaveLength(1);
    expect(scrape.stderr).toContain('/admin/scraper/runs');

    // the service went on unharmed: it answers and writes
    const reg = await fetch(`${api}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'web-made@example.test', password }),
    });
    expect(reg.status).toBe(201);
    expect((await login(api, email, password)).status).toBe(401);
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);

    // with the service stopped the CLI opens the directory and creates the user
    const created = await cli(dataDir, ['user:create', '--email', email, '--password', password, '--admin']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain(`created admin ${email}`);

    // the next start opens the directory; both users sign in; a kill -9 leaves a stale lock ...
    const again = startService(dataDir);
    const api2 = String((await again.waitFor('api.listening', 60_000)).url);
    expect((await login(api2, email, password)).status).toBe(200);
    expect((await login(api2, 'web-made@example.test', password)).status).toBe(200);
    again.child.kill('SIGKILL');
    await again.exited;
    expect(JSON.parse(readFileSync(join(dataDir, 'pglite.lock'), 'utf8'))).toMatchObject({
      pid: again.child.pid,
    });
    // ... which the CLI takes over, as the pid is gone
    const afterKill = await cli(dataDir, ['user:create', '--email', email, '--password', password]);
    expect(afterKill.code, afterKill.stderr).toBe(0);
    expect(afterKill.stdout).toContain(`updated admin ${email}`);
  }, 300_000);
});
