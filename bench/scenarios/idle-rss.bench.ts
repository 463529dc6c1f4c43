/**
 * Idle memory of `npm start` (budget in docs/performance.md: RSS <= 150 MB, issue 30): the whole service on the embedded
 * defaults (api, web and worker roles, PGlite, memory cache) started by `npm start` itself (its
 * prestart bundles src/ into dist/, then the script execs `node dist/main.js all`), left idle after
 * start-up, then the resident set of the process that serves read from /proc. On one data
 * directory: the first start of a new DATA_DIR (PostgreSQL's initdb runs in a short-lived child
 * process, reported in the notes), then ROUNDS starts on the initialized directory, each stopped
 * before the next: the figure is their median (bench/types.ts `Rounds`). The npm CLI that stays
 * resident as the parent of the service, and any child process of the service, are in the notes.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../types.js';
import { median, roundsOf } from '../rounds.js';

/** issue 30: the budget was 200 MB */
const IDLE_RSS_MB = 150;

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
};

/** The process running dist/main.js under npm (npm execs it through sh, so it is npm's child). */
function servingProcess(npmPid: number): number | undefined {
  const queue = childrenOf(npmPid);
  while (queue.length) {
    const pid = queue.shift()!;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (cmdline.some((a) => a.endsWith('dist/main.js'))) return pid;
    queue.push(...childrenOf(pid));
  }
  return undefined;
}

interface Measure {
  rss: number;
  startMs: number;
  npmRss: number;
  helpers: string;
}

export const scenarios: Scenario[] = [
  {
    name: 'idle-rss',
    async run(ctx) {
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-rss-'));
      const idleMs = ctx.quick ? 5_000 : 20_000;
      /** starts on the initialized directory: the rounds */
      const rounds = ctx.quick ? 2 : 3;
      try {
        const first = await measure(dataDir, idleMs);
        const steady: Measure[] = [];
        for (let r = 0; r < rounds; r++) steady.push(await measure(dataDir, idleMs));
        const o = roundsOf(
          steady.map((m) => m.rss),
          'figure',
          0,
        );
        const last = steady.at(-1)!;
        return [
          {
            scenario: 'idle-rss',
            figure: o.median,
            unit: 'MB',
            budget: 'RSS <= 150 MB',
            rounds: o,
            pass: o.median <= IDLE_RSS_MB,
            notes:
              `npm start (all roles, PGlite, memory cache), the serving process idle ${idleMs / 1000} s on an initialized DATA_DIR, ` +
              `${rounds} starts: ${steady.map((m) => Math.round(m.rss)).join(' / ')} MB; ` +
              `first start of a new DATA_DIR (initdb in a child process): ${Math.round(first.rss)} MB; ` +
              `npm start to process.started: ${(first.startMs / 1000).toFixed(1)} s first, ${(median(steady.map((m) => m.startMs)) / 1000).toFixed(1)} s after (median; the bundle build included); ` +
              `the npm CLI parent: ${Math.round(last.npmRss)} MB; child processes of the service: ${last.helpers || 'none'}`,
          },
        ];
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  },
];

async function measure(dataDir: string, idleMs: number): Promise<Measure> {
  const started = Date.now();
  const npm = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      API_PORT: '0',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => npm.once('exit', r));
  let out = '';
  npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
  let server: number | undefined;
  try {
    const until = Date.now() + 120_000;
    while (!out.includes('"process.started"')) {
      if (Date.now() > until || npm.exitCode !== null)
        throw new Error(`service did not start: ${out.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const startMs = Date.now() - started;
    server = servingProcess(npm.pid!);
    if (!server) throw new Error('no dist/main.js process under npm start');
    // idle: let start-up garbage be collected and timers settle
    await new Promise((r) => setTimeout(r, idleMs));
    const rss = rssMb(server);
    const helpers = childrenOf(server)
      .map((p) => `${p}: ${rssMb(p).toFixed(0)} MB`)
      .join(', ');
    return { rss, startMs, npmRss: rssMb(npm.pid!), helpers };
  } finally {
    // the service stops gracefully on SIGTERM; npm then exits with its code
    if (server) process.kill(server, 'SIGTERM');
    else npm.kill('SIGTERM');
    await exited;
  }
}
