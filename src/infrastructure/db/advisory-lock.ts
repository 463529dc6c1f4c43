import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { JobLock } from '../../application/shared/ports.js';
import { rowsOf, type Database } from './client.js';

/** 64-bit lock id from a job key such as `weekly-report:<topic>:<week>`. */
const lockId = (key: string) => createHash('sha256').update(key).digest().readBigInt64BE(0).toString();

/**
 * Advisory lock: exactly one worker runs a cron tick or job. On PostgreSQL a transaction-scoped
 * advisory lock excludes the other processes. Advisory locks are re-entrant within one session, and
 * PGlite has exactly one, so the keys this process holds are also kept in memory: a second call
 * in the same process is refused before it reaches the database (on both kinds).
 */
export class AdvisoryJobLock implements JobLock {
  private readonly held = new Set<string>();

  constructor(private readonly database: Database) {}

  async runExclusive<T>(key: string, fn: () => Promise<T>) {
    if (this.held.has(key)) return { ran: false as const };
    this.held.add(key);
    try {
      return await this.runLocked(key, fn);
    } finally {
      this.held.delete(key);
    }
  }

  private async runLocked<T>(key: string, fn: () => Promise<T>) {
    const id = lockId(key);
    const { db } = this.database;
    // A transaction pins one connection, so the lock is held by the session that releases it.
    // pg_try_advisory_xact_lock is released automatically when the transaction ends.
    let value: T | undefined;
    let ran = false;
    if (this.database.kind === 'postgres') {
      await db.transaction(async (tx) => {
        const [row] = rowsOf<{ ok: boolean }>(
          await tx.execute(sql`select pg_try_advisory_xact_lock(${id}::bigint) as ok`),
        );
        if (!row?.ok) return;
        ran = true;
        value = await fn();
      });
    } else {
      const [row] = rowsOf<{ ok: boolean }>(
        await db.execute(sql`select pg_try_advisory_lock(${id}::bigint) as ok`),
      );
      if (row?.ok) {
        ran = true;
        try {
          value = await fn();
        } finally {
          await db.execute(sql`select pg_advisory_unlock(${id}::bigint)`);
        }
      }
    }
    return ran ? { ran: true as const, value: value as T } : { ran: false as const };
  }
}
