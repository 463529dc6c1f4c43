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
  }
}

/**
 * Migrate once: one PGlite, whose dump every test file loads (well under a second), and with
 * TEST_DATABASE_URL one PostgreSQL database that each test database is created from as a copy
 * (a migration run costs each one 1-1.5 s on this machine; the copy a tenth of it). Both hold the
 * job queue's schema too (pg-boss installs it on first start: 0.3 s a database).
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'ai-test-'));
  const client = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  await installJobQueue({ db: fromPglite(client), backend: 'pglite' });
  await slimForTests(client);
  const dump = await client.dumpDataDir('none');
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteDump', file);
  project.provide('testRunId', randomUUID());
  const pg = await postgresTemplate();
  project.provide('pgTemplate', pg?.name ?? '');
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await pg?.drop();
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
  await client.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`);
  await client.exec('drop database template0');
  await client.exec('drop database template1');
  await client.exec('checkpoint');
}
