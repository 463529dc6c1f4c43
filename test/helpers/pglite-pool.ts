import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { openDatabase, pgliteDatabase, type Database } from '../../src/infrastructure/db/client.js';
import { seedDatabase } from '../../src/infrastructure/db/seed.js';
import * as schema from '../../src/infrastructure/db/schema/index.js';
import type { PgliteImage } from './pglite-image.js';

/**
 * PGlite test databases handed out one after another on the same instances, each as fresh as a new
 * one. Starting PostgreSQL in WebAssembly is most of a new test database's cost (~0.2 CPU-s on an
 * idle machine, ~0.3 in a full run, a few hundred a run); giving an instance back costs under a
 * hundredth: the tables that were written are emptied (DELETE, or TRUNCATE for large ones), the
 * session is reset (`discard all`: settings, prepared statements, temporary tables, LISTENs,
 * advisory locks) and the seed rows are written again. A test database is a lease on an instance:
 * once closed, every use of it fails as a closed PGlite's does, so a timer left running by one test
 * can never write into the next one's database.
 *
 * An instance is handed out again only when no DDL ran on it (an event trigger notes every command:
 * a test that altered a table, dropped an index or made a function closes its instance for good),
 * it is not closed, no transaction was left open, and the reset finished within RESET_TIMEOUT_MS.
 * Sequences start again where the image's do.
 */
export class PglitePool {
  private readonly idle: PGlite[] = [];

  constructor(private readonly image: PgliteImage) {}

  async lease(): Promise<Database> {
    let client = this.idle.pop();
    if (!client) {
      const opened = await openDatabase({ dataDir: 'memory://', pgliteFs: this.image.fs(), migrate: false });
      client = opened.pglite!;
      await watchSchema(client);
    }
    return this.leaseOf(client);
  }

  private leaseOf(client: PGlite): Database {
    let released = false;
    const listening = new Set<() => Promise<void>>();
    const leased = new Proxy(client, {
      get: (target, key) => {
        if (key === 'closed') return released || target.closed;
        if (key === 'then') return undefined;
        if (released) throw new Error('PGlite is closed');
        if (key === 'listen')
          return async (...args: Parameters<PGlite['listen']>) => {
            const stop = await target.listen(...args);
            const unlisten = async () => {
              listening.delete(unlisten);
              if (!target.closed) await stop();
            };
            listening.add(unlisten);
            return unlisten;
          };
        if (key === 'onNotification')
          return (callback: Parameters<PGlite['onNotification']>[0]) => {
            const off = target.onNotification(callback);
            const unlisten = async () => {
              listening.delete(unlisten);
              off();
            };
            listening.add(unlisten);
            return () => void unlisten();
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return pgliteDatabase(leased, async () => {
      if (released) return;
      released = true;
      for (const unlisten of [...listening]) await unlisten().catch(() => undefined);
      await this.giveBack(client);
    });
  }

  private async giveBack(client: PGlite): Promise<void> {
    if (client.closed) return;
    if (client.isInTransaction()) {
      await client.close().catch(() => undefined);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), RESET_TIMEOUT_MS);
    });
    const reset = this.reset(client).catch(() => false);
    const fresh = await Promise.race([reset, timedOut]);
    clearTimeout(timer);
    if (fresh && this.idle.length < MAX_IDLE) this.idle.push(client);
    else if (fresh) await client.close().catch(() => undefined);
    // a reset that failed or hangs: the instance is dropped (closed once the reset lets go of it)
    else void reset.then(() => client.close()).catch(() => undefined);
  }

  /** true when the instance is again as the image left it */
  private async reset(client: PGlite): Promise<boolean> {
    const ddl = await client.query<{ ran: boolean }>(`select exists (select 1 from test_pool.ddl) as ran`);
    if (ddl.rows[0]!.ran) return false;
    const { rows } = await client.query<{ name: string; bytes: number }>(
      `select format('%I.%I', n.nspname, c.relname) as name, pg_relation_size(c.oid)::int as bytes
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname in ('public', 'pgboss')
          and not (n.nspname = 'pgboss' and c.relname = 'version')
          and pg_relation_size(c.oid) > 0`,
    );
    // few rows are deleted (no foreign key is checked: replica role); large tables are truncated,
    // which leaves no dead rows behind
    const small = rows.filter((r) => r.bytes <= DELETE_UP_TO_BYTES).map((r) => r.name);
    const large = rows.filter((r) => r.bytes > DELETE_UP_TO_BYTES).map((r) => r.name);
    if (large.length) await client.exec(`truncate ${large.join(', ')} cascade`);
    if (small.length)
      await client.exec(
        `begin; set local session_replication_role = replica; ${small.map((t) => `delete from ${t};`).join(' ')} commit;`,
      );
    await client.exec(`select setval(s.seqrelid, s.seqstart, false) from pg_sequence s
                         join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
                        where n.nspname in ('public', 'pgboss')`);
    await client.exec('discard all');
    let db = seeders.get(client);
    if (!db) seeders.set(client, (db = drizzle(client, { schema })));
    await seedDatabase(db as never);
    return true;
  }
}

/**
 * A new instance notes every DDL command from then on in test_pool.ddl (an event trigger): an
 * instance whose schema a test changed is not handed out again. A schema of the pool's own, which
 * the tests' queries of `public` never see.
 */
async function watchSchema(client: PGlite): Promise<void> {
  await client.exec(`
    create schema test_pool;
    create table test_pool.ddl (tag text);
    create function test_pool.note_ddl() returns event_trigger language plpgsql as $$
      begin insert into test_pool.ddl values (tg_tag); end $$;
    create event trigger test_pool_ddl on ddl_command_end execute function test_pool.note_ddl();
    create event trigger test_pool_drop on sql_drop execute function test_pool.note_ddl();`);
}

/** the seed's own drizzle on each instance */
const seeders = new WeakMap<PGlite, ReturnType<typeof drizzle<typeof schema>>>();
const RESET_TIMEOUT_MS = 10_000;
/** instances kept per process: a test file has a few databases open at once at most */
const MAX_IDLE = 4;
/** tables up to this size are emptied with DELETE, larger ones with TRUNCATE */
const DELETE_UP_TO_BYTES = 64 * 1024;
