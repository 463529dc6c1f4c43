/**
 * PGlite's file-system bundle without the files only initdb and the build read.
 *
 * PGlite copies `pglite.data` (6.2 MB: PostgreSQL's `share/` and `lib/` trees and ICU's data) into
 * one ArrayBuffer and serves its in-memory `/pglite` file system from slices of it, for the life of
 * the process. An initialized data directory never reads about 5 MB of it: the bootstrap catalog
 * and the scripts initdb runs, the build tree (`pgxs`), the encoding conversions other than UTF-8
 * to UTF-8 (PGlite's clients speak UTF-8 only), the replication receiver, and ICU's data (initdb
 * creates the databases with the libc provider and the C collation; only an explicit ICU collation
 * would read it). `runtimeFsBundle` gives PGlite a bundle of the same size in which those files'
 * bytes are never read from disk: the buffer is zero-filled on demand by the kernel, so their pages
 * are never resident. `dropSkippedFiles` then unlinks them from the file system, so that a statement
 * that did reach for one gets PostgreSQL's clean "could not access file" error, never zeros.
 *
 * The file list comes from the bundle's own metadata in PGlite's Emscripten loader. When it cannot
 * be read as expected (a PGlite upgrade that changed its layout), the functions give nothing and
 * PGlite loads its bundle as it always did; `test/db/pglite-fs-bundle.test.ts` fails in that case,
 * so an upgrade is noticed. The first start of a new data directory (initdb) and in-memory databases
 * use the whole bundle.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Files an initialized PostgreSQL 18 never opens (PGlite's paths). */
const NOT_READ_AFTER_INITDB: readonly RegExp[] = [
  // initdb's bootstrap catalog and scripts, and the configuration samples it copies
  /^\/pglite\/share\/postgresql\/[^/]+\.(?:bki|sql|sample|txt)$/,
  // the build tree of extensions (PGXS)
  /^\/pglite\/lib\/postgresql\/pgxs\//,
  // encoding conversions (utf8_and_sjis.so, euc_tw_and_big5.so, ...): server and client are UTF-8
  /^\/pglite\/lib\/postgresql\/\w+_and_\w+\.so$/,
  // streaming replication's receiver
  /^\/pglite\/lib\/postgresql\/libpqwalreceiver\.so$/,
  // ICU's data: the databases use the libc provider, no ICU collation is used
  /^\/pglite\/icu\//,
];

export interface BundleFile {
  path: string;
  start: number;
  end: number;
}

export interface RuntimeBundle {
  /** what PGlite's `fsBundle` option takes */
  fsBundle: Blob;
  /** the files whose bytes were left out */
  skipped: readonly BundleFile[];
  /** bytes left out */
  skippedBytes: number;
}

/** A Blob that hands PGlite the prepared buffer itself (a plain Blob would copy every byte). */
class PreparedBundle extends Blob {
  readonly #buffer: ArrayBuffer;
  constructor(buffer: ArrayBuffer) {
    super([]);
    this.#buffer = buffer;
  }
  override get size(): number {
    return this.#buffer.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#buffer);
  }
}

const pgliteDist = () => dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

/**
 * The bundle's table of contents, as PGlite's Emscripten loader (`pglite.js`) lists it, and the
 * bundle's size; undefined when the loader does not list it in the form read here.
 */
export function bundleContents(
  dist = pgliteDist(),
): { files: BundleFile[]; size: number; dataPath: string } | undefined {
  const dataPath = join(dist, 'pglite.data');
  let loader: string;
  let size: number;
  try {
    loader = readFileSync(join(dist, 'pglite.js'), 'latin1');
    size = statSync(dataPath).size;
  } catch {
    return undefined;
  }
  const declared = /remote_package_size:(\d+)/.exec(loader);
  if (!declared || Number(declared[1]) !== size) return undefined;
  const files: BundleFile[] = [];
  for (const m of loader.matchAll(/\{filename:"([^"\\]+)",start:(\d+),end:(\d+)\}/g)) {
    const start = Number(m[2]);
    const end = Number(m[3]);
    if (!(start <= end)) return undefined;
    files.push({ path: m[1]!, start, end });
  }
  // every byte belongs to exactly one listed file: a file this pattern missed would otherwise stay
  // in the file system with its bytes unread
  files.sort((a, b) => a.start - b.start);
  let covered = 0;
  for (const f of files) {
    if (f.start !== covered) return undefined;
    covered = f.end;
  }
  return files.length > 0 && covered === size ? { files, size, dataPath } : undefined;
}

/** Whether an initialized database never reads this bundle file. */
export const notReadAfterInitdb = (path: string): boolean =>
  NOT_READ_AFTER_INITDB.some((re) => re.test(path));

/**
 * The bundle with the files an initialized data directory never reads left unread (see the top of
 * this file); undefined when PGlite's loader does not list the bundle as expected.
 */
export function runtimeFsBundle(dist = pgliteDist()): RuntimeBundle | undefined {
  const contents = bundleContents(dist);
  if (!contents) return undefined;
  const skipped = contents.files.filter((f) => notReadAfterInitdb(f.path));
  // the files lie back to back (in order): the kept ones read as a few long runs
  const runs: Array<[number, number]> = [];
  for (const f of contents.files) {
    if (notReadAfterInitdb(f.path) || f.end === f.start) continue;
    const last = runs.at(-1);
    if (last && f.start === last[1]) last[1] = f.end;
    else runs.push([f.start, f.end]);
  }
  const buffer = new ArrayBuffer(contents.size);
  const bytes = new Uint8Array(buffer);
  const fd = openSync(contents.dataPath, 'r');
  try {
    for (const [start, end] of runs) {
      let at = start;
      while (at < end) {
        const n = readSync(fd, bytes, at, end - at, at);
        if (n === 0) throw new Error(`${contents.dataPath}: ends at ${at}, before ${end}`);
        at += n;
      }
    }
  } finally {
    closeSync(fd);
  }
  return {
    fsBundle: new PreparedBundle(buffer),
    skipped,
    skippedBytes: skipped.reduce((sum, f) => sum + (f.end - f.start), 0),
  };
}

/** The part of PGlite's Emscripten file system used here. */
interface EmscriptenFs {
  unlink(path: string): void;
}

/**
 * Unlinks the files `runtimeFsBundle` left unread from PGlite's in-memory file system: a statement
 * that reached for one fails on a missing file instead of reading zeros.
 */
export function dropSkippedFiles(fs: EmscriptenFs, skipped: readonly BundleFile[]): void {
  for (const f of skipped) {
    try {
      fs.unlink(f.path);
    } catch {
      // not there (a directory entry PGlite did not create): nothing to read by mistake
    }
  }
}
