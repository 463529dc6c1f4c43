import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
 * Compiles src/ to dist/ the way `npm start` does (transpile only; `npm run check` type-checks),
 * once per test run: files that run `node dist/main.js` side by side must not have dist/ rewritten
 * under them by another file's compile (a file read while tsc truncates it fails to load). The
 * first caller compiles under a lock; the others wait for it and reuse its output.
 */
export async function compileDist(): Promise<void> {
  const run = inject('testRunId');
  const stamp = join('dist', `.compiled-${run}`);
  const lock = join(tmpdir(), `article-intel-compile-${run}`);
  const until = Date.now() + 300_000;
  for (;;) {
    if (existsSync(stamp)) return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > until) throw new Error('dist/ was not compiled within 5 minutes by another file');
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (existsSync(stamp)) return;
    const { createRequire } = await import('node:module');
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`tsc failed (${code}): ${stderr}`);
    for (const old of readdirSync('dist').filter((f) => f.startsWith('.compiled-')))
      rmSync(join('dist', old), { force: true });
    writeFileSync(stamp, `${new Date().toISOString()}\n`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
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
