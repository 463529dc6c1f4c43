import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { PgBoss, fromPglite } from 'pg-boss';
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS, openDatabase } from '../../src/infrastructure/db/client.js';
import { createScratchDatabase } from './scratch-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    /** a migrated PostgreSQL database every test database is copied from ('' without TEST_DATABASE_URL) */
    pgTemplate: string;
    /** this run's id: files that compile dist/ compile it once per run (compileDist) */
    testRunId: string;
    /** a directory of this run, removed at its end (the initialized DATA_DIR's template) */
    testRunDir: string;
  }
}

/**
 * Migrate once: one PGlite, whose dump every test file loads (well under a second), and with
 * TEST_DATABASE_URL one PostgreSQL database that each test database is created from as a copy
 * (a migration run costs each one 1-1.5 s on this machine; the copy a tenth of it). Both hold the
 * job queue's schema too (pg-boss installs it on first start: 0.3 s a database).
 */
export default async function setup(project: TestProject) {
  // Vitest runs a global set-up once per project (three, all extending this one): they share one
  // preparation, made by the first, undone by the last to finish
  const store = globalThis as { [PREPARED]?: { ready: Promise<Prepared>; users: number } };
  const shared = (store[PREPARED] ??= { ready: prepare(), users: 0 });
  shared.users++;
  const prepared = await shared.ready;
  project.provide('pgliteDump', prepared.dumpFile);
  project.provide('testRunId', prepared.runId);
  project.provide('pgTemplate', prepared.pgTemplate);
  project.provide('testRunDir', prepared.dir);
  return async () => {
    if (--shared.users > 0) return;
    delete store[PREPARED];
    await prepared.dispose();
  };
}

const PREPARED = Symbol.for('article-intel.test-global-setup');

interface Prepared {
  dir: string;
  dumpFile: string;
  runId: string;
  pgTemplate: string;
  dispose(): Promise<void>;
}

async function prepare(): Promise<Prepared> {
  const dir = mkdtempSync(join(tmpdir(), 'ai-test-'));
  // the PostgreSQL template is made while PGlite migrates (one waits on the server, the other works
  // in this process)
  const template = postgresTemplate();
  template.catch(() => undefined);
  const client = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  await installJobQueue({ db: fromPglite(client), backend: 'pglite' });
  await slimForTests(client);
  const dump = await client.dumpDataDir('none');
  const dumpFile = join(dir, 'migrated.tar');
  writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  const pg = await template;
  return {
    dir,
    dumpFile,
    runId: randomUUID(),
    pgTemplate: pg?.name ?? '',
    async dispose() {
      rmSync(dir, { recursive: true, force: true });
      await pg?.drop();
    },
  };
}

async function postgresTemplate() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  const scratch = await createScratchDatabase(adminUrl, 't_template');
  try {
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    await database.close();
    await installJobQueue({ connectionString: scratch.url, max: 1 });
  } catch (err) {
    await scratch.drop();
    throw err;
  }
  return { name: new URL(scratch.url).pathname.slice(1), drop: scratch.drop };
}

/** pg-boss's own tables, as its first start in the service would create them */
async function installJobQueue(target: ConstructorParameters<typeof PgBoss>[0]) {
  const boss = new PgBoss({
    ...(target as object),
    registerInstance: false,
    supervise: false,
    schedule: false,
    openTelemetry: { enabled: false },
  } as ConstructorParameters<typeof PgBoss>[0]);
  await boss.start();
  await boss.stop({ graceful: false, close: 'connectionString' in (target as object) });
}

/**
 * Each test file opens PGlite from this dump, often several times; without the two template
 * databases (8 MB each of the 42 MB; nothing in the tests creates a database on PGlite) an open costs
 * ~190 ms of CPU instead of ~225 (alternated, fourteen each).
 */
async function slimForTests(client: PGlite) {
  await client.exec(
    `update pg_database set datistemplate = false where datname in ('template0', 'template1')`,
  );
  await client.exec('drop database template0');
  await client.exec('drop database template1');
  await client.exec('checkpoint');
}
