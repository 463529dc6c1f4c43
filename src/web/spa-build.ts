import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger as Pino } from 'pino';

const SOURCES = ['src', 'index.html', 'vite.config.ts', 'public'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when web/dist is missing or older than any source of the app (a stat walk, a few ms). */
export function spaIsStale(webDir: string): boolean {
  const built = join(webDir, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(webDir, s)) > builtAt);
}

/**
 * `npm start` serves a current build: rebuild with Vite in a child process (so the bundler's memory
 * is given back) when the sources changed. Without Vite installed (a production image) the existing
 * build is served as it is. The build goes to a private directory and is published into web/dist
 * without ever emptying it (see publish), so a running web role, or a second process building at
 * the same time, never sees a missing file.
 */
export async function ensureSpaBuilt(rootDir: string, logger: Pino): Promise<void> {
  const webDir = join(rootDir, 'web');
  if (!spaIsStale(webDir)) return;
  const viteBin = join(rootDir, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(viteBin)) {
    logger.warn({ event: 'web.build_unavailable', reason: 'vite is not installed' });
    return;
  }
  const started = Date.now();
  const outDir = join(webDir, `.dist-${process.pid}-${started}`);
  logger.info({ event: 'web.build.started' });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        viteBin,
        'build',
        webDir,
        '--config',
        join(webDir, 'vite.config.ts'),
        '--mode',
        'production',
        '--outDir',
        outDir,
        '--logLevel',
        'warn',
      ],
      {
        cwd: rootDir,
        env: productionEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`vite build failed (exit ${code}):\n${output.slice(-4000)}`)),
    );
  });
  try {
    publish(outDir, join(webDir, 'dist'));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
  logger.info({ event: 'web.build.completed', duration_ms: Date.now() - started });
}

/**
 * Hashed assets are copied in first (new names never clash with the ones being served), then
 * index.html is swapped in with one rename: a page sees either the old build or the new one.
 */
function publish(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry !== 'index.html') cpSync(join(from, entry), join(to, entry), { recursive: true, force: true });
  }
  renameSync(join(from, 'index.html'), join(to, 'index.html'));
}

/** A test runner's NODE_ENV=test, MODE and DEV would make Vite bundle React's development builds. */
function productionEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(VITEST.*|TEST|DEV|MODE|NODE_ENV)$/.test(k)) env[k] = v;
  }
  return { ...env, NODE_ENV: 'production' };
}
