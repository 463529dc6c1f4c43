import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { httpOptionsOf } from '../../src/composition/http-options.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * The CLI's way into a running service on PGlite (issue 25.3): `Authorization: Local <secret>` is an
 * admin only from this machine, through no proxy, and only with the secret of this start.
 */
describe('the local admin channel (the CLI beside the service)', () => {
  let t: TestApp;
  let app: FastifyInstance;
  const SECRET = 'local-secret-local-secret-local-secret-0';
  beforeAll(async () => {
    t = await buildTestApp();
    app = await buildApp(t.container.services, t.container.logger, {
      ...httpOptionsOf(t.container.config, t.container.telemetry),
      localAdminSecret: SECRET,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  const call = (headers: Record<string, string>, remoteAddress = '127.0.0.1', url = '/admin/users') =>
    app.inject({ method: 'GET', url, headers, remoteAddress });

  it('is an admin from this machine with the secret, through no proxy; nothing else', async () => {
    expect((await call({ authorization: `Local ${SECRET}` })).statusCode).toBe(200);
    expect((await call({ authorization: `Local ${SECRET}` }, '::1')).statusCode).toBe(200);
    expect((await call({ authorization: `Local ${SECRET}x` })).statusCode).toBe(401);
    expect((await call({ authorization: 'Local' })).statusCode).toBe(401);
    expect((await call({ authorization: `Local ${SECRET}` }, '10.1.2.3')).statusCode).toBe(401);
    expect(
      (await call({ authorization: `Local ${SECRET}`, 'x-forwarded-for': '127.0.0.1' })).statusCode,
    ).toBe(401);
    // it is no account: user routes refuse it
    expect(
      (await call({ authorization: `Local ${SECRET}` }, '127.0.0.1', '/user/subscriptions')).statusCode,
    ).toBe(403);
    // an app without a secret (PostgreSQL) knows no such channel
    const plain = await t.app.inject({
      method: 'GET',
      url: '/admin/users',
      headers: { authorization: `Local ${SECRET}` },
    });
    expect(plain.statusCode).toBe(401);
  });
});
