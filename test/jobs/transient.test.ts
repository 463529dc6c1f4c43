import { createServer, type Server, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTransientError } from '../../src/application/jobs/transient.js';
import { isStoreUnavailable } from '../../src/http/plugins/errors.js';

/** a loopback "database" that never answers, hangs up at once, or lets a client connect and no more */
async function tcpPeer(onConnection: (socket: Socket) => void): Promise<{ port: number; server: Server }> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

const errorOf = async (work: () => Promise<unknown>): Promise<Error> => {
  try {
    await work();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
};

/**
 * A job tries again what may pass later, as the HTTP layer answers it 503: here the errors are the
 * drivers' own, raised by node-postgres against loopback peers that stall, hang up or are busy. In the soak
 * test on a loaded machine an article job met the pool's "timeout exceeded when trying to connect"
 * and its article failed for good.
 */
describe('a lost or unavailable database connection is transient for jobs', () => {
  const sockets: Socket[] = [];
  let silent: Awaited<ReturnType<typeof tcpPeer>>;
  let hangUp: Awaited<ReturnType<typeof tcpPeer>>;
  let ready: Awaited<ReturnType<typeof tcpPeer>>;
  beforeAll(async () => {
    silent = await tcpPeer((s) => void sockets.push(s));
    hangUp = await tcpPeer((s) => s.destroy());
    // the server's side of a start-up without a password: AuthenticationOk, then ReadyForQuery (idle);
    // the client is connected and holds its pool's slot (it sends nothing more until it is used)
    ready = await tcpPeer((s) => {
      sockets.push(s);
      s.on('error', () => undefined);
      s.once('data', () => s.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49])));
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all([silent, hangUp, ready].map((p) => new Promise((r) => p?.server.close(r))));
  });

  it('a pool with no connection free in time', async () => {
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: ready.port,
      user: 'u',
      database: 'd',
      max: 1,
      connectionTimeoutMillis: 200,
    });
    pool.on('error', () => undefined);
    const held = await pool.connect(); // the pool's one connection, kept
    try {
      const waiting = await errorOf(() => pool.connect());
      expect(waiting.message).toBe('timeout exceeded when trying to connect');
      expect(isTransientError(waiting)).toBe(true);
      expect(isStoreUnavailable(waiting)).toBe(true);
      // as the repositories meet it: through the ORM
      const viaOrm = await errorOf(() => drizzlePg(pool).execute(sql`select 1`));
      expect(isTransientError(viaOrm)).toBe(true);
      expect(isStoreUnavailable(viaOrm)).toBe(true);
    } finally {
      held.release();
      await pool.end();
    }
  });

  it('a connection that times out, as a client and as a pool say it', async () => {
    const options = {
      host: '127.0.0.1',
      port: silent.port,
      user: 'u',
      database: 'd',
      connectionTimeoutMillis: 200,
    };
    const client = new pg.Client(options);
    const pool = new pg.Pool({ ...options, max: 1 });
    pool.on('error', () => undefined);
    try {
      const byClient = await errorOf(() => client.connect());
      const byPool = await errorOf(() => pool.connect());
      expect(byClient.message).toBe('timeout expired');
      expect(byPool.message).toBe('Connection terminated due to connection timeout');
      for (const err of [byClient, byPool]) {
        expect(isTransientError(err)).toBe(true);
        expect(isStoreUnavailable(err)).toBe(true);
      }
    } finally {
      await pool.end();
    }
  });

  it('a server that hangs up', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: hangUp.port, user: 'u', database: 'd' });
    const err = await errorOf(() => client.connect());
    expect(err.message).toMatch(/^Connection terminated unexpectedly/);
    expect(isTransientError(err)).toBe(true);
    expect(isStoreUnavailable(err)).toBe(true);
  });

  it('a failure for good is not transient when its parameters (outside text) say "connection terminated"', async () => {
    const db = new PGlite();
    try {
      const orm = drizzlePglite(db);
      await orm.execute(sql`create table t (title text primary key)`);
      const title = 'Connection terminated unexpectedly: a story about outages';
      await orm.execute(sql`insert into t values (${title})`);
      const err = await errorOf(() => orm.execute(sql`insert into t values (${title})`));
      expect(err.message).toContain(title); // the ORM's wrapper quotes the parameters
      expect(isTransientError(err)).toBe(false);
      expect(isStoreUnavailable(err)).toBe(false);
    } finally {
      await db.close();
    }
  });
});
