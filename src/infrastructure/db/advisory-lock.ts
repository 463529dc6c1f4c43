import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { JobLock } from '../../application/shared/ports.js';
import type { Logger } from '../../application/shared/ports.js';
import { rowsOf, type Database, type PooledConnection } from './client.js';

/** 64-bit lock id from a job key such as `weekly-report:<topic>:<week>`. */
const lockId = (key: string) => createHash('sha256').update(key).digest().readBigInt64BE(0).toString();

/**
 * Advisory lock: exactly one worker runs a cron tick or job. On PostgreSQL a session-level advisory
 * lock, on a connection of the pool checked out for the job's length, excludes the other processes.
 * Advisory locks are re-entrant within one session, and PGlite has exactly one, so the keys this
 * process holds are also kept in memory: a second call in the same process is refused before it
 * reaches the database (on both kinds).
 */
export class AdvisoryJobLock implements JobLock {
  private readonly held = new Set<string>();

  constructor(
    private readonly database: Database,
    private readonly logger?: Logger,
  ) {}

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
    if (this.database.connect) return this.onOwnConnection(this.database.connect, key, id, fn);
    const { db } = this.database;
    const [row] = rowsOf<{ ok: boolean }>(
      await db.execute(sql`select pg_try_advisory_lock(${id}::bigint) as ok`),
    );
    if (!row?.ok) return { ran: false as const };
    try {
      return { ran: true as const, value: await fn() };
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${id}::bigint)`);
    }
  }

  /**
   * PostgreSQL: the lock lives as long as its session, so the job keeps one connection of the pool
   * (not a transaction left open for minutes). The job's own statements use the pool as usual. A
   * connection that breaks while the job runs (a server restart, a failover) ends the lock with it:
   * that is logged and the job goes on (this process still refuses a second one); it must never be
   * an uncaught error, which is what an idle checked-out node-postgres client's `error` event is.
   */
  private async onOwnConnection<T>(
    connect: () => Promise<PooledConnection>,
    key: string,
    id: string,
    fn: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }> {
    const client = await connect();
    let broken = false;
    const onError = (err: Error) => {
      broken = true;
      this.logger?.warn({ event: 'job_lock.connection_lost', key, error: err.message });
    };
    client.on('error', onError);
    try {
      let locked: boolean;
      try {
        const { rows } = await client.query<{ ok: boolean }>(
          'select pg_try_advisory_lock($1::bigint) as ok',
          [id],
        );
        locked = !!rows[0]?.ok;
      } catch (err) {
        broken = true;
        throw err;
      }
      if (!locked) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        if (!broken)
          await client.query('select pg_advisory_unlock($1::bigint)', [id]).catch((err: unknown) => {
            onError(err instanceof Error ? err : new Error(String(err)));
          });
      }
    } finally {
      // a broken connection is closed, not handed back to the pool
      client.release(broken);
      client.off('error', onError);
    }
  }
}
