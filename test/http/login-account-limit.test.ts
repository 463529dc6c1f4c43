import { afterAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_DEFAULTS } from '../../src/application/auth/login-throttle.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cacheKinds } from '../helpers/db.js';

const PASSWORD = 'correct horse battery';
const { freePerAddress, freePerAccount, maxDelaySeconds } = LOGIN_THROTTLE_DEFAULTS;

describe.each(cacheKinds())('sign-in limits per account as well as per address (%s cache)', (cache) => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  async function setup() {
    // the per-address limit is out of the way here (it has its own tests): the account limit speaks
    const t = await buildTestApp({ cache, env: { RATE_LIMIT_LOGIN_PER_MINUTE: '100000' } });
    apps.push(t);
    const email = `owner-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
    const reg = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email, password: PASSWORD },
    });
    expect(reg.statusCode).toBe(201);
    /** a sign-in relayed by the web role (loopback, a trusted proxy) for a browser at `ip` */
    const login = (ip: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': ip },
        payload: { email, password },
      });
    return { t, email, login };
  }

  it('slows failed attempts on one account from one address with Retry-After, never longer than the maximum', async () => {
    const { login } = await setup();
    const statuses: number[] = [];
    for (let i = 0; i < freePerAddress + 1; i++)
      statuses.push((await login('203.0.113.7', 'wrong-password')).statusCode);
    expect(statuses).toEqual(Array(freePerAddress + 1).fill(401));
    const delayed = await login('203.0.113.7', 'wrong-password');
    expect(delayed.statusCode).toBe(429);
    expect(delayed.json().error.code).toBe('sign_in_delayed');
    const retry = Number(delayed.headers['retry-after']);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(maxDelaySeconds);
    // during the delay even the right password waits: the delay is not a way to test guesses
    expect((await login('203.0.113.7', PASSWORD)).statusCode).toBe(429);
    // another address of the same owner is not held up by that one address's failures
    expect((await login('198.51.100.20', PASSWORD)).statusCode).toBe(200);
  });

  it('an attack from many addresses cannot keep the owner out: the known address signs in at once', async () => {
    const { login } = await setup();
    // the owner signed in from home before
    expect((await login('192.0.2.10', PASSWORD)).statusCode).toBe(200);
    const answers: number[] = [];
    for (let i = 0; i < freePerAccount + 15; i++)
      answers.push((await login(`10.20.${i}.1`, 'guess-' + i)).statusCode);
    expect(answers.slice(0, freePerAccount)).toEqual(Array(freePerAccount).fill(401));
    expect(answers.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);

    const fresh = await login('192.0.2.99', PASSWORD);
    expect(fresh.statusCode).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeLessThanOrEqual(maxDelaySeconds);

    const home = await login('192.0.2.10', PASSWORD);
    expect(home.statusCode).toBe(200);
    // that success clears the account's counts: the new address goes through as well
    expect((await login('192.0.2.99', PASSWORD)).statusCode).toBe(200);
  });
});
