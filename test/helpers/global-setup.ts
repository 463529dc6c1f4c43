import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../../src/infrastructure/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
  }
}

/** Migrate one PGlite once; every test file loads the dump (well under a second) instead. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'ai-test-'));
  const client = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  const dump = await client.dumpDataDir('none');
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteDump', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
