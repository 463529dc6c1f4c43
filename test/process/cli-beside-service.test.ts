import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDist, initializedDataDir, startServiceProcess } from '../helpers/service-process.js';
import { makeItem, rssFeed, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';

// the service runs as `npm start` runs it, from dist/ (compiled once per test run)
beforeAll(() => compileDist(), 300_000);

/**
 * Issue 15 and 25: a README CLI command started while `npm start` runs on the same DATA_DIR never
 * opens the embedded database a second time. It goes through the running service's admin API
 * (the local admin channel in DATA_DIR/local-admin.json): `user:create` and `scrape` succeed and
 * show up in the service. When the channel cannot be reached it refuses with exit 2 and one line;
 * with the service stopped the CLI opens the directory itself.
 */
const children = new Set<ChildProcessWithoutNullStreams>();
const AUTH_SECRET = 'cli-lock-secret-cli-lock-secret-0123456';

function startService(dataDir: string) {
  return startServiceProcess(
    ['dist/main.js', 'all'],
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      AUTH_SECRET,
      API_PORT: '0',
      PORT: '0',
      API_HOST: '127.0.0.1',
      HOST: '127.0.0.1',
      FETCH_ALLOWED_HOSTS: '127.0.0.1',
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

const json = async (res: Response) => ({
  status: res.status,
  body: (await res.json()) as Record<string, unknown>,
});

describe('the CLI beside a running service on the same DATA_DIR (PGlite)', () => {
  // initialized: the first start is not what this file looks at
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await initializedDataDir('ai-cli-lock-');
  });
  let feeds: HttpPeer | undefined;
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await feeds?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('user:create and scrape go through the running service and show up in it; exit 2 only when it cannot be reached', async () => {
    const items = [makeItem(), makeItem(), makeItem()];
    feeds = await startFeedServer({ '/feed.xml': rssFeed(items) });
    const svc = startService(dataDir);
    const api = String((await svc.waitFor('api.listening', 60_000)).url);
    await svc.waitFor('process.started', 120_000);
    const lock = JSON.parse(readFileSync(join(dataDir, 'pglite.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(svc.child.pid);
    const channelFile = join(dataDir, 'local-admin.json');
    expect(statSync(channelFile).mode & 0o777).toBe(0o600);

    // user:create: the account is made by the running service and signs in there at once
    const email = 'cli-made@example.test';
    const password = 'a-long-password';
    const create = await cli(dataDir, ['user:create', '--email', email, '--password', password, '--admin']);
    expect(create.code, create.stderr).toBe(0);
    expect(create.stdout).toContain(`created admin ${email}`);
    expect(create.stdout).toContain(`in the running service (pid ${svc.child.pid})`);
    const session = await json(await login(api, email, password));
    expect(session.status).toBe(200);
    const auth = {
      authorization: `Bearer ${String(session.body.access_token)}`,
      'content-type': 'application/json',
    };
    // the password policy holds there too: exit 2 with the reason
    const weak = await cli(dataDir, [
      'user:create',
      '--email',
      'weak@example.test',
      '--password',
      'qwertyuiop',
    ]);
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain('this password is too common');

    // scrape: a run of the running service, followed to its end; its articles are there
    const topic = await json(
      await fetch(`${api}/admin/topics`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'CLI' }),
      }),
    );
    expect(topic.status).toBe(201);
    const source = await fetch(`${api}/admin/sources`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        topic_id: topic.body.id,
        name: 'CLI feed',
        kind: 'rss',
        url: `${feeds.url}/feed.xml`,
      }),
    });
    expect(source.status).toBe(201);
    const scrape = await cli(dataDir, ['scrape', '--json']);
    expect(scrape.code, scrape.stderr).toBe(0);
    const run = JSON.parse(scrape.stdout) as { id: string; kind: string; status: string };
    expect(run).toMatchObject({ kind: 'scrape', status: 'completed' });
    const runs = await json(await fetch(`${api}/admin/runs?kind=scrape`, { headers: auth }));
    expect((runs.body.items as { id: string }[]).map((r) => r.id)).toContain(run.id);
    const articles = await json(await fetch(`${api}/articles?limit=50`));
    const titles = (articles.body.items as { title: string }[]).map((a) => a.title);
    for (const item of items) expect(titles).toContain(item.title);

    // the other job commands go the same way
    const flushed = await cli(dataDir, ['flush-views']);
    expect(flushed.code, flushed.stderr).toBe(0);
    expect(flushed.stdout).toMatch(/^flushed \d+ views into \d+ articles in \d+ ms \(in the running service/);
    const refreshed = await cli(dataDir, ['refresh-metrics', '--json']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(JSON.parse(refreshed.stdout)).toMatchObject({ kind: 'metrics', status: 'completed' });

    // a channel that does not answer for this service (e.g. a file left by an earlier one): exit 2
    const channel = readFileSync(channelFile, 'utf8');
    writeFileSync(channelFile, JSON.stringify({ ...JSON.parse(channel), pid: 1 }), { mode: 0o600 });
    const refused = await cli(dataDir, ['scrape']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(`the service (pid ${svc.child.pid}) holds the database in DATA_DIR`);
    expect(refused.stderr).toContain('/admin/scraper/runs');
    writeFileSync(channelFile, channel, { mode: 0o600 });

    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
    expect(existsSync(channelFile)).toBe(false);

    // with the service stopped the CLI opens the directory itself
    const updated = await cli(dataDir, [
      'user:create',
      '--email',
      email,
      '--password',
      'another-long-password',
    ]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toContain(`updated admin ${email}`);
    expect(updated.stdout).not.toContain('running service');

    // the next start opens the directory with a new channel secret; a kill -9 leaves a stale lock ...
    const again = startService(dataDir);
    const api2 = String((await again.waitFor('api.listening', 60_000)).url);
    expect((await login(api2, email, 'another-long-password')).status).toBe(200);
    expect(JSON.parse(readFileSync(channelFile, 'utf8')).secret).not.toBe(JSON.parse(channel).secret);
    again.child.kill('SIGKILL');
    await again.exited;
    expect(JSON.parse(readFileSync(join(dataDir, 'pglite.lock'), 'utf8'))).toMatchObject({
      pid: again.child.pid,
    });
    // ... which the CLI takes over, as the pid is gone (the channel file left behind is ignored)
    const afterKill = await cli(dataDir, ['user:create', '--email', email, '--password', password]);
    expect(afterKill.code, afterKill.stderr).toBe(0);
    expect(afterKill.stdout).toContain(`updated admin ${email}`);
  }, 300_000);
});
