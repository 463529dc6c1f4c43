import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import v8 from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.js';
import { lockDataDir } from './data-dir-lock.js';
import { checkDataDir, explainDataDirFailure } from './data-dir.js';
import { withStorableParams } from './storable-params.js';
import { yieldBetweenStatements } from './pglite-turns.js';
import { dropSkippedFiles, runtimeFsBundle } from './pglite-fs-bundle.js';
import { projectRoot } from '../project-root.js';

export type Schema = typeof schema;
/** One type for both drivers: repositories never know which one runs underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** the server this database is on (PostgreSQL): the job queue opens a pool of its own there */
  connectionString?: string;
  /** the embedded instance (PGlite): the job queue runs its statements on it */
  pglite?: PGlite;
  /**
   * PostgreSQL: one connection of the pool for the caller alone (session-level advisory locks);
   * `release(true)` when it broke. Its errors are the caller's to handle.
   */
  connect?(): Promise<PooledConnection>;
  /**
   * LISTEN on `channel` (a constant lower-case name): `heard(payload)` for each NOTIFY from now on,
   * from any process on this database; `heard(null)` when the listening connection was lost and
   * opened again, so that word sent meanwhile may be missing. Resolves once listening; the function
   * it resolves to stops.
   */
  listen(channel: string, heard: (payload: string | null) => void): Promise<() => Promise<void>>;
  /** true when the database answers a trivial query */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** A checked-out PostgreSQL connection (node-postgres PoolClient, the part used). */
export interface PooledConnection {
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
  release(destroy?: boolean): void;
}

export const MIGRATIONS_DIR = join(projectRoot(), 'migrations');

export interface OpenOptions {
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for an in-memory database */
  dataDir?: string;
  /** a migrated PGlite data dir dump (tests) */
  loadDataDir?: Blob | File;
  /**
   * the file system of an in-memory PGlite, used instead of a new empty one (tests: one that is
   * filled with a migrated data directory before PostgreSQL starts); not used with an on-disk
   * `dataDir`
   */
  pgliteFs?: PGliteOptions['fs'];
  poolSize?: number;
  migrate?: boolean;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const url = opts.databaseUrl;
    // node-postgres is loaded only when it is used: a PGlite process does not hold it
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      // Named statements (kept-statements.ts) are planned with each execution's values: a generic
      // plan of the articles list reads the whole table. A server without the setting (before
      // PostgreSQL 12) or a pooler that refuses it leaves the default, which plans by cost.
      // pg-pool awaits the hook before the connection's first query; @types/pg says void
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      onConnect: async (client) => {
        await client.query('set plan_cache_mode = force_custom_plan').catch(() => undefined);
      },
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});

    const db = withStorableParams(drizzlePg(pool, { schema }) as unknown as Db);
    if (opts.migrate !== false)
      await underMigrationLock(pool, () => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }));
    return {
      db,
      kind: 'postgres',
      connectionString: opts.databaseUrl,
      connect: () => pool.connect() as Promise<PooledConnection>,
      listen: (channel, heard) => listenOn(pg.Client, url, channel, heard),
      ping: () => ping(db),
      close: () => pool.end(),
    };
  }
  const dir = opts.dataDir ?? 'memory://';
  useBaselineWasmCompiler();
  const onDisk = !dir.startsWith('memory://');
  let unlock = () => {};
  let client: PGlite;
  try {
    if (onDisk) {
      // a read-only, full or foreign-owned DATA_DIR is named with its cause (exit 1 in main.ts)
      checkDataDir(dir);
      // one process per data directory: a second open corrupts it (data-dir-lock.ts)
      unlock = lockDataDir(dir);
      if (!opts.loadDataDir && !existsSync(join(dir, 'PG_VERSION')))
        await initDataDirInChild(dir, opts.migrate !== false);
    }
    // an initialized directory: PGlite's share/ and lib/ without what only initdb reads (~5 MB
    // less resident for the life of the process; pglite-fs-bundle.ts)
    const bundle = onDisk && !opts.loadDataDir ? runtimeFsBundle() : undefined;
    client = await PGlite.create(dir, {
      startParams: PGLITE_START_PARAMS,
      extensions: PGLITE_EXTENSIONS,
      ...(bundle ? { fsBundle: bundle.fsBundle } : {}),
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
      ...(opts.pgliteFs && !onDisk ? { fs: opts.pgliteFs } : {}),
    });
    if (bundle) dropSkippedFiles(client.Module.FS, bundle.skipped);
  } catch (err) {
    unlock();
    throw onDisk ? explainDataDirFailure(dir, err) : err;
  }
  yieldBetweenStatements(client);
  try {
    const database = pgliteDatabase(client, async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        unlock();
      }
    });
    if (opts.migrate !== false)
      await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR });
    return database;
  } catch (err) {
    if (!client.closed) await client.close().catch(() => undefined);
    unlock();
    throw err;
  }
}

/**
 * The database on an open PGlite instance; `close` ends it. openDatabase's, and the tests' that
 * hand one instance to one test database after another (test/helpers/db.ts).
 */
export function pgliteDatabase(client: PGlite, close: () => Promise<void>): Database {
  const db = withStorableParams(drizzlePglite(client, { schema }) as unknown as Db);
  return {
    db,
    kind: 'pglite',
    pglite: client,
    // one process per data directory: a NOTIFY comes from this process, through the same instance
    listen: async (channel, heard) => {
      checkChannel(channel);
      const stop = await client.listen(channel, (payload) => heard(payload));
      return () => (client.closed ? Promise.resolve() : stop());
    },
    ping: () => ping(db),
    close,
  };
}

const checkChannel = (channel: string) => {
  if (!/^[a-z_]{1,63}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
};

/** how long a lost listening connection waits before it is opened again */
const RELISTEN_MS = 1000;

/**
 * LISTEN on a PostgreSQL connection of its own (a pooled one would be handed to other statements).
 * A lost connection is opened again every RELISTEN_MS until it listens, then says so with
 * `heard(null)`.
 */
async function listenOn(
  Client: typeof import('pg').Client,
  connectionString: string,
  channel: string,
  heard: (payload: string | null) => void,
): Promise<() => Promise<void>> {
  checkChannel(channel);
  let current: InstanceType<typeof Client> | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const open = async () => {
    const c = new Client({
      connectionString,
      connectionTimeoutMillis: 5000,
      application_name: `listen ${channel}`,
    });
    c.on('notification', (n) => {
      if (n.channel === channel) heard(n.payload ?? '');
    });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (stopped) await c.end().catch(() => undefined);
    else current = c;
  };
  const again = () => {
    retry = setTimeout(() => {
      if (stopped) return;
      open().then(() => {
        if (!stopped) heard(null);
      }, again);
    }, RELISTEN_MS);
    retry.unref();
  };
  const lost = (c: InstanceType<typeof Client>) => {
    if (current !== c || stopped) return;
    current = undefined;
    c.end().catch(() => undefined);
    again();
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = current;
    current = undefined;
    await c?.end().catch(() => undefined);
  };
}

/**
 * PGlite's own defaults plus a small buffer pool and shared memory sized for its one backend.
 * PGlite runs PostgreSQL inside one WASM memory that never shrinks, and PostgreSQL touches all of
 * its shared memory at start.
 * - shared_buffers: initdb writes 128MB. 1MB (128 pages) holds what one backend's queries pin at
 *   once; pages that miss it are read from the OS page cache. Against 8MB the idle service holds
 *   ~8 MB less; the pipeline on PGlite spends ~3 % more CPU per article, and a page of the list on
 *   200k articles moved within the machine's noise (docs/decisions/0157-idle-memory-arenas-and-buffer-pool.md).
 * - The process table and the lock tables are sized for max_connections (100), the autovacuum slots
 *   (16) and the WAL senders (10), ~6 MB of the 8MB of shared memory; PGlite runs one backend, no
 *   autovacuum worker and no replication. With 10, 1 and 0 (and no replication slots) it is 5MB and
 *   ~2 MB less stays resident. The lock table holds max_locks_per_transaction times the backends'
 *   slots: 256 keeps 3,072 locks for the one backend (8,128 before); every migration from an empty
 *   database, applied in one run, succeeds with 120
 *   (docs/decisions/0172-pglite-runtime-bundle-and-shared-memory.md).
 */
export const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...['-c', 'shared_buffers=1MB'],
  ...['-c', 'max_connections=10', '-c', 'autovacuum_worker_slots=1'],
  ...['-c', 'max_wal_senders=0', '-c', 'max_replication_slots=0'],
  ...['-c', 'max_locks_per_transaction=256'],
];

/**
 * Extensions the migrations create (`create extension if not exists pg_trgm`, the trigram index of
 * the reader search): PGlite ships them as separate bundles that must be named at create time.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * V8 tiers hot WASM functions up to TurboFan; for PostgreSQL's 9 MB module that compilation leaves
 * ~60 MB of malloc arenas behind for good, and PGlite's short queries run no slower on Liftoff, V8's
 * baseline compiler (docs/decisions/0003-idle-memory.md). Only WASM compiled afterwards is affected;
 * PGlite is the only WASM in the service.
 */
function useBaselineWasmCompiler(): void {
  v8.setFlagsFromString('--liftoff-only');
  // Node 24's V8 no longer reads --liftoff-only once its WASM engine is up (the idle service kept
  // ~100 MB of compiler arenas); switching tier-up off still keeps every function on Liftoff
  v8.setFlagsFromString('--no-wasm-tier-up');
  v8.setFlagsFromString('--no-wasm-dynamic-tiering');
}

/**
 * The first start of a new data directory runs initdb, which takes a second PGlite instance and the
 * initdb module, and then every migration; the WASM memory they grow is never returned to the
 * system. A short-lived child process does both instead, so the service only ever opens an
 * initialized, migrated directory (its own migrate call then finds nothing to do).
 */
async function initDataDirInChild(dir: string, migrate: boolean): Promise<void> {
  const resolvePath = createRequire(import.meta.url).resolve;
  const script = `const { PGlite } = require(${JSON.stringify(resolvePath('@electric-sql/pglite'))});
const { pg_trgm } = require(${JSON.stringify(resolvePath('@electric-sql/pglite/contrib/pg_trgm'))});
const { drizzle } = require(${JSON.stringify(resolvePath('drizzle-orm/pglite'))});
const { migrate } = require(${JSON.stringify(resolvePath('drizzle-orm/pglite/migrator'))});
(async () => {
  const db = await PGlite.create(process.argv[1], {
    startParams: JSON.parse(process.argv[2]),
    extensions: { pg_trgm },
  });
  if (process.argv[3]) await migrate(drizzle(db), { migrationsFolder: process.argv[3] });
  await db.close();
})().catch((err) => { console.error(err); process.exit(1); });`;
  const args = [dir, JSON.stringify(PGLITE_START_PARAMS), migrate ? MIGRATIONS_DIR : ''];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--liftoff-only', '-e', script, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`PGlite initdb of ${dir} failed (exit ${code}): ${stderr.slice(-2000)}`)),
    );
  });
}

/**
 * Several processes (api replicas, workers) may start at once on a new database; each runs the
 * migrations. Drizzle's migrator takes no lock, so two of them would both apply the first migration
 * and one would fail. A session advisory lock held on one pooled connection makes them take turns:
 * the later ones then find nothing to do.
 */
async function underMigrationLock(
  pool: { connect(): Promise<{ query(q: string): Promise<unknown>; release(): void }> },
  migrate: () => Promise<void>,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query(`select pg_advisory_lock(hashtext('article-intel:migrations'))`);
    try {
      await migrate();
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('article-intel:migrations'))`);
    }
  } finally {
    client.release();
  }
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** Rows of a raw query, whichever driver ran it. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
