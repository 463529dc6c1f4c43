import { closeSync, fsyncSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const CAUSES: Record<string, string> = {
  EACCES: 'permission denied (the service user cannot write there)',
  EPERM: 'operation not permitted (the service user cannot write there)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'a file of that name is in the way',
  EISDIR: 'a directory is where a file should be',
};
/** errno numbers of PGlite's WASM file system (WASI), for errors that carry only the number */
const WASI_ERRNO: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  51: 'ENOSPC',
  63: 'EPERM',
  69: 'EROFS',
};

/** DATA_DIR cannot be used: names the path and the cause; main.ts prints it and exits 1. */
export class DataDirError extends Error {
  constructor(
    readonly path: string,
    readonly code: string,
    detail?: string,
  ) {
    super(
      `DATA_DIR cannot be used: ${path}: ${CAUSES[code] ?? detail ?? code}${code in CAUSES ? ` (${code})` : ''}`,
    );
    this.name = 'DataDirError';
  }
}

function codeOf(err: unknown): string | undefined {
  for (
    let e = err as { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown } | undefined, d = 0;
    e && d < 4;
    d++
  ) {
    if (typeof e.code === 'string' && e.code in CAUSES) return e.code;
    if (typeof e.errno === 'number' && WASI_ERRNO[e.errno] && /Errno/i.test(String(e.message ?? e)))
      return WASI_ERRNO[e.errno];
    const text = String(e.message ?? '');
    const named = Object.keys(CAUSES).find((c) => text.includes(c));
    if (named) return named;
    if (/no space left/i.test(text)) return 'ENOSPC';
    if (/read-only file system/i.test(text)) return 'EROFS';
    if (/permission denied/i.test(text)) return 'EACCES';
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * `mkdir -p` that says why. Node's recursive mkdir answers ENOENT for a path it cannot create on a
 * read-only file system or under a directory it may not write (it stats the missing path after the
 * real failure): here each missing directory is made on its own, from the deepest one that exists,
 * so the error is the real one (EROFS, EACCES, ENOTDIR, ...), named with the directory that failed.
 */
export function makeDataDir(dir: string): void {
  const path = resolve(dir);
  const missing: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) throw new DataDirError(p, 'ENOTDIR');
      break;
    } catch (err) {
      if (err instanceof DataDirError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new DataDirError(p, codeOf(err) ?? code ?? 'EIO', (err as Error).message);
      if (dirname(p) === p) throw new DataDirError(p, 'ENOENT', 'the root of the path does not exist');
      missing.push(p);
    }
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (err) {
      // made meanwhile by another process: fine
      if ((err as NodeJS.ErrnoException).code === 'EEXIST' && statSync(p).isDirectory()) continue;
      throw new DataDirError(
        p,
        codeOf(err) ?? (err as NodeJS.ErrnoException).code ?? 'EIO',
        (err as Error).message,
      );
    }
  }
}

/**
 * Before PGlite opens the directory: create it and write, sync and remove a probe file, so a
 * read-only, full or foreign-owned DATA_DIR is reported as such instead of as a WASM errno.
 */
export function checkDataDir(dir: string): void {
  const path = resolve(dir);
  const probe = join(path, `.write-probe-${process.pid}`);
  makeDataDir(path);
  try {
    const fd = openSync(probe, 'w');
    try {
      writeSync(fd, Buffer.alloc(64 * 1024));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
      unlinkSync(probe);
    }
  } catch (err) {
    throw new DataDirError(path, codeOf(err) ?? 'EIO', (err as Error).message);
  }
}

/** An error of PGlite or its init child on DATA_DIR, as a DataDirError when its cause is known. */
export function explainDataDirFailure(dir: string, err: unknown): unknown {
  if (err instanceof DataDirError) return err;
  const code = codeOf(err);
  return code ? new DataDirError(resolve(dir), code) : err;
}

/** where the embedded database (PGlite) keeps its files inside `DATA_DIR` */
export function embeddedDatabaseDir(dataDir: string): string {
  return join(dataDir, 'pglite');
}
