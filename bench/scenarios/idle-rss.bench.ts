/**
 * Idle memory of `npm start` (DESIGN.md §6: RSS <= 200 MB): the whole service on the embedded
 * defaults (api, web and worker roles, PGlite, memory cache) started as `npm start` starts it,
 * left idle after start-up, then its resident set read from /proc. The data directory is
 * initialized by a first start that is not measured: the first start of a new DATA_DIR runs
 * PostgreSQL's initdb inside PGlite, whose WASM memory never shrinks afterwards. The figure is the service
 * process itself (tsx's esbuild helper is a separate process and is reported in the notes).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../types.js';

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

export const scenarios: Scenario[] = [
  {
    name: 'idle-rss',
    async run(ctx) {
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-rss-'));
      const first = await measure(dataDir, 0);
      const steady = await measure(dataDir, ctx.quick ? 5_000 : 20_000);
      rmSync(dataDir, { recursive: true, force: true });
      return [
        {
          scenario: 'idle-rss',
          figure: Math.round(steady.rss),
          unit: 'MB',
          budget: 'RSS <= 200 MB',
          pass: steady.rss <= 200,
          notes: `npm start (all roles, PGlite, memory cache) idle on an initialized DATA_DIR; first start of a new DATA_DIR (initdb): ${Math.round(first.rss)} MB; child processes: ${steady.helpers || 'none'}`,
        },
      ];
    },
  },
];

async function measure(dataDir: string, idleMs: number): Promise<{ rss: number; helpers: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'all'], {
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
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  try {
    const until = Date.now() + 120_000;
    while (!out.includes('"process.started"')) {
      if (Date.now() > until || child.exitCode !== null)
        throw new Error(`service did not start: ${out.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // idle: let start-up garbage be collected and timers settle
    await new Promise((r) => setTimeout(r, idleMs));
    const figure = rssMb(child.pid!);
    let helpers = '';
    try {
      helpers = execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((p) => `${p}: ${rssMb(Number(p)).toFixed(0)} MB`)
        .join(', ');
    } catch {
      /* no child processes */
    }
    return { rss: figure, helpers };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
