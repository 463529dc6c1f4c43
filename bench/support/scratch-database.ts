import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A new database `<tag>_<random>` on the server of `adminUrl`, and how to drop it again: empty, or a
 * copy of `template` (a database nobody is connected to, such as the tests' migrated one).
 */
export async function createScratchDatabase(
  adminUrl: string,
  tag: string,
  template?: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${tag}_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}${template ? ` template ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
