import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDist, initializedDataDir } from '../helpers/service-process.js';
import { HttpPeer } from '../peers/http-peer.js';
import { killAll, startService, until } from './service-process.js';

// the service runs as `npm start` runs it, from dist/ (compiled once per test run)
beforeAll(() => compileDist(), 300_000);

// eslint-disable-next-line no-control-regex -- the colour codes of a terminal are what it strips
const ANSI = /\x1b\[[0-9;]*m/g;
const ADMIN = { email: 'console-admin@example.test', password: 'console-admin-password-1' };

/**
 * The console as an operator sees it, from the real entry point: readable lines on a terminal, JSON
 * lines otherwise; no request lines at `info`; one line on SIGINT/SIGTERM that says what the
 * process waits for and how long at most.
 */
describe('the console of a running service', () => {
  const dirs: string[] = [];
  let peer: HttpPeer;
  /** a feed that answers only when released: a run stays under way */
  let release: () => void = () => undefined;
  beforeAll(async () => {
    const held = new Promise<void>((r) => (release = r));
    peer = await new HttpPeer(async (_req, res) => {
      await held;
      res
        .writeHead(200, { 'content-type': 'application/rss+xml' })
        .end('<rss version="2.0"><channel/></rss>');
    }).start();
  });
  afterAll(async () => {
    release();
    killAll();
    await peer.stop();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });
  /** an initialized DATA_DIR: the first start is not what this file looks at */
  const dataDir = async () => {
    const d = await initializedDataDir('ai-console-');
    dirs.push(d);
    return d;
  };
  const env = async () => ({
    DATA_DIR: await dataDir(),
    API_PORT: '0',
    API_HOST: '127.0.0.1',
    SHUTDOWN_GRACE_SECONDS: '3',
    FETCH_ALLOWED_HOSTS: '127.0.0.1',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });

  it('writes JSON lines when stdout is not a terminal, no request lines at info, and one line on SIGTERM naming the run it waits for', async () => {
    const svc = startService('api', await env());
    const url = String((await svc.waitFor('api.listening', 90_000)).url);
    const call = async (method: string, path: string, body?: unknown, auth?: string) => {
      const r = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(auth ? { authorization: auth } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
      return JSON.parse(text) as Record<string, string>;
    };
    const auth = `Bearer ${(await call('POST', '/auth/login', ADMIN)).access_token}`;
    const topic = await call('POST', '/admin/topics', { name: 'Console' }, auth);
    const source = await call(
      'POST',
      '/admin/sources',
      { topic_id: topic.id, name: 'Slow feed', kind: 'rss', url: `${peer.url}/feed.xml`, force: true },
      auth,
    );
    for (let i = 0; i < 5; i++) await fetch(`${url}/articles?limit=1`);
    await call('POST', `/admin/sources/${source.id}/fetch`, undefined, auth);
    await until(() => peer.requests.length > 0, 30_000, 'the run to read the feed');

    const signalled = Date.now();
    svc.child.kill('SIGTERM');
    const line = await svc.waitFor('process.signal', 10_000);
    expect(await svc.exited).toBe(0);
    // the feed never answers: its read is abandoned when the grace period (3 s) has passed, and the
    // run ends as interrupted, instead of the read's own 15 s timeout keeping the process
    expect(Date.now() - signalled).toBeLessThan(10_000);
    const failed = svc.lines.find((l) => l.event === 'scraper.run.failed');
    expect(String(failed?.error)).toMatch(
      /^interrupted: the process stopped before the run had read its sources/,
    );
    // a source the stop interrupted is not recorded as failing
    expect(svc.lines.filter((l) => l.event === 'scraper.source.failed')).toEqual([]);
    // every line was JSON (the helper keeps only lines that parse) and none is a request line
    expect(svc.lines.length).toBeGreaterThan(3);
    expect(svc.lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual(
      [],
    );
    expect(line.runs).toEqual(['scrape']);
    expect(line.msg).toBe(
      'SIGTERM: stopping; waiting up to 3 s for the scrape run to end ' +
        '(unfinished jobs go back to the queue), at most 18 s in all',
    );
    expect(svc.lines.filter((l) => l.event === 'process.signal')).toHaveLength(1);
  }, 180_000);

  it('writes readable lines on a terminal, request lines only at debug, and answers Ctrl-C with one line', async () => {
    // `script` gives the service a pseudo-terminal as stdout and stdin, like a shell window. It runs
    // the command through $SHELL -c: `exec` makes the service the terminal's only process whatever
    // that shell is (dash stays between and dies of the Ctrl-C itself, so `script` answered 130
    // for a service that had stopped cleanly); SHELL is fixed so that every machine runs the same.
    const child = spawn('script', ['-qefc', `exec ${process.execPath} dist/main.js api`, '/dev/null'], {
      env: { ...process.env, ...(await env()), SHELL: '/bin/sh', NODE_ENV: 'production', LOG_LEVEL: 'debug' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      await until(() => out.includes('process.started'), 90_000, 'the service to start');
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
      expect(url).toBeDefined();
      await fetch(`${url}/health`);
      await until(() => out.includes('request completed'), 10_000, 'a request line at debug');
      // readable: a time, a level word and the message, not a JSON object
      const plain = out.replace(ANSI, '');
      expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: process\.started \{"role":"api"/m);
      expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] DEBUG: +request completed \{/m);
      expect(plain).not.toMatch(/^\{"level"/m);
      // Ctrl-C as a terminal sends it
      child.stdin.write('\x03');
      // the console is in the message: a failure says what the service wrote after the signal
      expect(await exited, out.replace(ANSI, '').slice(-4000)).toBe(0);
      const stop = out.replace(ANSI, '').match(/SIGINT: stopping;[^{\r\n]*/g);
      expect(stop).toEqual([
        'SIGINT: stopping; nothing is running, closing the stores (at most 18 s); Ctrl-C again stops at once ',
      ]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 180_000);
});
