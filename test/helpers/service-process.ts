import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

export type LogLine = Record<string, unknown>;

export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  /** every JSON log line printed so far */
  lines: LogLine[];
  exited: Promise<number | null>;
  waitFor(event: string, timeoutMs: number): Promise<LogLine>;
  stderr(): string;
}

/**
 * One role of the service as production runs it: `node dist/main.js <role>` (compile first with
 * `compileDist`), on the Node that runs the tests. Its JSON log lines are collected.
 */
export function startServiceProcess(
  args: string[],
  env: Record<string, string>,
  track?: Set<ChildProcessWithoutNullStreams>,
): ServiceProcess {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as unknown as ChildProcessWithoutNullStreams;
  track?.add(child);
  child.on('exit', () => track?.delete(child));
  const lines: LogLine[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      try {
        lines.push(JSON.parse(line) as LogLine);
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
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`exited early (${child.exitCode ?? child.signalCode}): ${stderr.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${event} within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`);
  };
  return { child, lines, exited, waitFor, stderr: () => stderr };
}

/**
 * Runs `make` once per test run across the workers: the first caller makes it under a lock (a
 * directory), the others wait for its stamp file and reuse what it made.
 */
async function oncePerRun(name: string, stamp: string, make: () => Promise<void>): Promise<void> {
  const lock = join(tmpdir(), `article-intel-${name}-${inject('testRunId')}`);
  const until = Date.now() + 300_000;
  for (;;) {
    if (existsSync(stamp)) return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`${name} was not made within 5 minutes by another file`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (existsSync(stamp)) return;
    await make();
    writeFileSync(stamp, `${new Date().toISOString()}\n`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds dist/ the way `npm start` does (`scripts/build-server.ts`: the esbuild bundle; `npm run
 * check` type-checks), once per test run: files that run `node dist/main.js` side by side must not
 * have dist/ rewritten under them by another file's build (a file read while it is rewritten fails
 * to load).
 */
export function compileDist(): Promise<void> {
  return oncePerRun('compile', join('dist', `.compiled-${inject('testRunId')}`), async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts', '--quiet'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`build:server failed (${code}): ${stderr}`);
    for (const old of readdirSync('dist').filter((f) => f.startsWith('.compiled-')))
      rmSync(join('dist', old), { force: true });
  });
}

/**
 * A new DATA_DIR (under the system's temporary directory, named by `prefix`) whose embedded database
 * is already initialized and migrated, as a service's first start leaves it: a copy of one made once
 * per test run by the service's own `openDatabase`. A first start spends ~2.8 s of CPU on initdb and
 * the migrations; files whose subject is not the first start take this instead (the service still
 * seeds and starts its job queue on it, as on any later start). The caller removes the directory.
 */
export async function initializedDataDir(prefix: string): Promise<string> {
  const template = join(inject('testRunDir'), 'data-dir-template');
  await oncePerRun('data-dir', join(inject('testRunDir'), 'data-dir-template.ready'), async () => {
    rmSync(template, { recursive: true, force: true });
    const { openDatabase } = await import('../../src/infrastructure/db/client.js');
    const database = await openDatabase({ dataDir: join(template, 'pglite') });
    await database.close();
  });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(template, dir, { recursive: true });
  return dir;
}

/** throws unless this run's compileDist has finished (a file that starts dist/main.js calls it first) */
export function assertDistCompiled(): void {
  if (!existsSync(join('dist', `.compiled-${inject('testRunId')}`)))
    throw new Error("dist/ is not compiled for this run: call compileDist() in the file's beforeAll");
}

/** Polls `fn` until it returns a value other than undefined. */
export async function eventually<T>(
  fn: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
