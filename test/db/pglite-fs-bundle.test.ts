/**
 * PGlite's file-system bundle read without the files only initdb and the build use
 * (src/infrastructure/db/pglite-fs-bundle.ts): the installed PGlite's table of contents is read as
 * expected (an upgrade that changes it fails here, not in a running service), the files left unread
 * are those named and no others, and an initialized data directory opened through the service's own
 * path still does everything that reads the bundle (text search, time zones and their
 * abbreviations, PL/pgSQL) while a statement reaching for a left-out file fails cleanly.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, PGLITE_START_PARAMS } from '../../src/infrastructure/db/client.js';
import {
  bundleContents,
  notReadAfterInitdb,
  runtimeFsBundle,
} from '../../src/infrastructure/db/pglite-fs-bundle.js';

const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
const root = mkdtempSync(join(tmpdir(), 'fs-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("PGlite's bundle without initdb's files", () => {
  it("reads the installed PGlite's table of contents: every byte in one file, in order", () => {
    const contents = bundleContents(dist)!;
    expect(contents).toBeDefined();
    expect(contents.files.length).toBeGreaterThan(500);
    const paths = contents.files.map((f) => f.path);
    for (const p of [
      '/pglite/share/postgresql/postgres.bki',
      '/pglite/share/postgresql/timezone/UTC',
      '/pglite/share/postgresql/timezonesets/Default',
      '/pglite/share/postgresql/tsearch_data/english.stop',
      '/pglite/lib/postgresql/dict_snowball.so',
      '/pglite/lib/postgresql/plpgsql.so',
    ])
      expect(paths).toContain(p);
  });

  it('leaves out initdb, the build tree, encoding conversions, replication and ICU, and nothing else', () => {
    const { files } = bundleContents(dist)!;
    const skipped = files.filter((f) => notReadAfterInitdb(f.path)).map((f) => f.path);
    expect(skipped).toEqual(
      expect.arrayContaining([
        '/pglite/share/postgresql/postgres.bki',
        '/pglite/share/postgresql/information_schema.sql',
        '/pglite/share/postgresql/postgresql.conf.sample',
        '/pglite/lib/postgresql/utf8_and_sjis.so',
        '/pglite/lib/postgresql/libpqwalreceiver.so',
        '/pglite/icu/icudt76l/coll/ucadata.icu',
      ]),
    );
    for (const p of skipped)
      expect(p).toMatch(
        /^\/pglite\/(share\/postgresql\/[^/]+\.(bki|sql|sample|txt)|lib\/postgresql\/(pgxs\/.+|\w+_and_\w+\.so|libpqwalreceiver\.so)|icu\/.+)$/,
      );
    // what PostgreSQL reads at run time stays
    for (const p of [
      '/pglite/share/postgresql/timezone/Europe/Berlin',
      '/pglite/share/postgresql/timezonesets/Default',
      '/pglite/share/postgresql/tsearch_data/english.stop',
      '/pglite/share/postgresql/extension/plpgsql.control',
      '/pglite/lib/postgresql/dict_snowball.so',
      '/pglite/lib/postgresql/plpgsql.so',
    ])
      expect(notReadAfterInitdb(p)).toBe(false);
  });

  it('reads every kept byte as the bundle holds it and none of the left-out ones', () => {
    const data = readFileSync(join(dist, 'pglite.data'));
    const bundle = runtimeFsBundle(dist)!;
    expect(bundle.fsBundle.size).toBe(data.length);
    // most of the 6.2 MB: the figure this change is for
    expect(bundle.skippedBytes).toBeGreaterThan(4_000_000);
    return bundle.fsBundle.arrayBuffer().then((buffer) => {
      const bytes = new Uint8Array(buffer);
      for (const f of bundleContents(dist)!.files) {
        const got = bytes.subarray(f.start, f.end);
        if (notReadAfterInitdb(f.path)) expect(got.every((b) => b === 0)).toBe(true);
        else expect(Buffer.compare(got, data.subarray(f.start, f.end))).toBe(0);
      }
    });
  });

  it('gives nothing when the loader does not list the bundle as expected, and PGlite loads it whole', () => {
    const changed = mkdtempSync(join(root, 'changed'));
    const loader = readFileSync(join(dist, 'pglite.js'), 'latin1');
    // a file the pattern does not read: the table no longer covers every byte
    writeFileSync(
      join(changed, 'pglite.js'),
      loader.replace(
        '{filename:"/pglite/share/postgresql/postgres.bki"',
        '{filename:"/pglite/share/postgresql/postgres\\u002ebki"',
      ),
      'latin1',
    );
    copyFileSync(join(dist, 'pglite.data'), join(changed, 'pglite.data'));
    expect(bundleContents(changed)).toBeUndefined();
    expect(runtimeFsBundle(changed)).toBeUndefined();
    // a bundle of another size than the loader declares
    const resized = mkdtempSync(join(root, 'resized'));
    writeFileSync(join(resized, 'pglite.js'), loader, 'latin1');
    writeFileSync(join(resized, 'pglite.data'), readFileSync(join(dist, 'pglite.data')).subarray(1));
    expect(runtimeFsBundle(resized)).toBeUndefined();
  });

  it('sizes shared memory for one backend', () => {
    const settings = new Map<string, string>();
    for (let i = 0; i < PGLITE_START_PARAMS.length - 1; i++)
      if (PGLITE_START_PARAMS[i] === '-c') {
        const [k, v] = PGLITE_START_PARAMS[i + 1]!.split('=');
        settings.set(k!, v!);
      }
    expect(settings.get('max_connections')).toBe('10');
    expect(settings.get('max_wal_senders')).toBe('0');
  });

  it('opens an initialized data directory that still reads what it needs, and fails cleanly on what was left out', async () => {
    const dir = join(root, 'data');
    // the first open runs initdb and the migrations in a child process with the whole bundle; the
    // second is a later start of the service, the case the smaller bundle is for
    await (await openDatabase({ dataDir: dir })).close();
    const database = await openDatabase({ dataDir: dir });
    try {
      const one = async (q: string) =>
        ((await database.db.execute(sql.raw(q))) as unknown as { rows: Array<{ a: string }> }).rows[0]?.a;
      // the English stemmer (dict_snowball.so) and its stop words
      expect(await one(`select to_tsvector('english', 'The running dogs')::text a`)).toBe("'dog':3 'run':2");
      // a time zone's file and the abbreviations of timezonesets/Default
      expect(
        await one(`select (timestamptz '2026-06-01 12:00 UTC' at time zone 'Europe/Berlin')::text a`),
      ).toBe('2026-06-01 14:00:00');
      expect(await one(`select (timestamptz '2026-01-01 12:00 PST')::text a`)).toBe('2026-01-01 20:00:00+00');
      // PL/pgSQL (plpgsql.so)
      await database.db.execute(sql.raw(`do $$ begin perform 1; end $$`));
      expect(await one(`select current_setting('shared_memory_size') a`)).toBe('5MB');
      // a left-out file is missing, not a file of zeros
      await expect(database.db.execute(sql.raw(`select convert_to('é', 'LATIN1') a`))).rejects.toSatisfy(
        (e: Error & { cause?: Error }) =>
          /could not access file "utf8_and_iso8859_1"/.test(e.cause?.message ?? e.message),
      );
      await expect(
        database.db.execute(sql.raw(`select ('a' < 'b' collate "und-x-icu") a`)),
      ).rejects.toSatisfy((e: Error & { cause?: Error }) =>
        /could not open collator/.test(e.cause?.message ?? e.message),
      );
      // and the database answers after both errors
      expect(await one(`select 'still here' a`)).toBe('still here');
    } finally {
      await database.close();
    }
  }, 120_000);
});
