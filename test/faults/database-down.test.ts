import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TcpProxy } from '../peers/tcp-proxy.js';
import { openDatabase, type Database } from '../../src/infrastructure/db/client.js';

const adminUrl = process.env.TEST_DATABASE_URL;

/** PostgreSQL goes away under a running API and comes back: 503s while it is gone, then recovery. */
describe.runIf(adminUrl)('PostgreSQL unavailable', () => {
  let proxy: TcpProxy;
  let database: Database;
  let t: TestApp;
  const name = `t_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const target = new URL(adminUrl!);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    const url = new URL(adminUrl!);
    url.port = String(proxy.port);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString(), poolSize: 3 });
    t = await buildTestApp({ database });
  });

  afterAll(async () => {
    await t?.close();
    await database?.close();
    await proxy?.stop();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('answers 503 on /ready and clean 503 errors while the database is gone, and recovers', async () => {
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/topics' })).statusCode).toBe(200);

    proxy.cut();
    const ready = await t.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', checks: { database: false, cache: true } });
    const topics = await t.app.inject({ url: '/topics' });
    expect(topics.statusCode).toBe(503);
    expect(topics.json().error.code).toBe('service_unavailable');
    expect(topics.body).not.toMatch(/ECONN|127\.0\.0\.1|postgres/i);
    expect((await t.app.inject({ url: '/health' })).statusCode).toBe(200);

    proxy.restore();
    let recovered = 0;
    for (let i = 0; i < 20 && recovered !== 200; i++) {
      recovered = (await t.app.inject({ url: '/topics' })).statusCode;
      if (recovered !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(recovered).toBe(200);
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(200);
  });
});
