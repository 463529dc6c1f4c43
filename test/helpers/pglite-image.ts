import { readFileSync } from 'node:fs';
import { MemoryFS, type PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/infrastructure/db/client.js';
import { seedDatabase } from '../../src/infrastructure/db/seed.js';

/** where PGlite keeps PostgreSQL's data directory in its in-memory file system */
const PGDATA = '/pglite/data';

/** a directory (no data) or a file of the data directory, by its path in PGlite's file system */
interface ImageEntry {
  path: string;
  data?: Uint8Array;
}

type EmscriptenFs = PGlite['Module']['FS'];

/**
 * The migrated and seeded test database's data directory, held in memory once per process, and the in-memory
 * file systems that start each test database from it.
 *
 * Opening PGlite with `loadDataDir` untars the dump at every open: ~1,200 files, each looked up
 * directory by directory, which was about a third of an open's CPU (~0.6 CPU-s; the open itself,
 * PostgreSQL's start in WebAssembly, is the rest) and, with hundreds of opens, the largest single
 * part of the test workers' work after the queries. Here the dump is loaded once, PostgreSQL is
 * shut down cleanly, and its files are read back; each new database gets copies of them (PostgreSQL
 * writes to its files) before it starts, as PGlite would find a data directory on disk.
 */
export class PgliteImage {
  private constructor(private readonly entries: readonly ImageEntry[]) {}

  /** the image of a `dumpDataDir` file; one load per process and file */
  static of(dumpFile: string): Promise<PgliteImage> {
    let loading = images.get(dumpFile);
    if (!loading) {
      loading = PgliteImage.load(dumpFile);
      images.set(dumpFile, loading);
      loading.catch(() => images.delete(dumpFile));
    }
    return loading;
  }

  private static async load(dumpFile: string): Promise<PgliteImage> {
    const database = await openDatabase({
      dataDir: 'memory://',
      loadDataDir: new Blob([readFileSync(dumpFile)]),
      migrate: false,
    });
    const fs = database.pglite!.Module.FS;
    // seeded once here rather than at every open (~35 CPU-ms each: a new server plans every statement)
    await seedDatabase(database.db);
    // a clean shutdown: the files read back are those of a stopped server (no postmaster.pid)
    await database.close();
    const entries: ImageEntry[] = [];
    const walk = (dir: string) => {
      for (const name of fs.readdir(dir) as string[]) {
        if (name === '.' || name === '..') continue;
        const path = `${dir}/${name}`;
        if (fs.isDir(fs.stat(path).mode)) {
          entries.push({ path });
          walk(path);
        } else entries.push({ path, data: fs.readFile(path) as Uint8Array });
      }
    };
    walk(PGDATA);
    if (!entries.some((e) => e.path === `${PGDATA}/PG_VERSION`))
      throw new Error(`${dumpFile} did not load as a PGlite data directory (no PG_VERSION)`);
    return new PgliteImage(entries);
  }

  /** a new in-memory file system holding a copy of the image, for one PGlite (`pgliteFs`) */
  fs(): MemoryFS {
    return new ImageMemoryFs(this.entries);
  }
}

const images = new Map<string, Promise<PgliteImage>>();

class ImageMemoryFs extends MemoryFS {
  constructor(private readonly entries: readonly ImageEntry[]) {
    super();
  }

  /** before PostgreSQL starts: directories in the order they were read, so parents come first */
  override async initialSyncFs(): Promise<void> {
    await super.initialSyncFs();
    const fs: EmscriptenFs = this.pg!.Module.FS;
    fs.mkdirTree(PGDATA);
    for (const { path, data } of this.entries) {
      // writeFile copies: the image stays as it was for the next database
      if (data) fs.writeFile(path, data);
      else fs.mkdir(path);
    }
  }
}
