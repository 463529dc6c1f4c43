import { afterAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_DEFAULTS } from '../../src/application/auth/login-throttle.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cacheKinds } from '../helpers/db.js';
import { makeToken } from '../mcp/mcp-helpers.js';

const PASSWORD = 'correct horse battery';
const { freePerAddress, maxDelaySeconds } = LOGIN_THROTTLE_DEFAULTS;

/**
 * ClientLogin is throttled per account like /auth/login (the same counts, keyed by the e-mail in
 * `Email`), not only per address: failed attempts on one account from one address wait, a waiting
 * attempt is refused without the token being checked, and another address is not held up.
 */
describe.each(cacheKinds())(
  'Google Reader ClientLogin: the per-account sign-in throttle (%s cache)',
  (cache) => {
    const apps: TestApp[] = [];
    afterAll(() => Promise.all(apps.map((a) => a.close())));

    async function setup() {
      // the per-address limit is out of the way here: the account limit speaks
      const t = await buildTestApp({ cache, env: { RATE_LIMIT_LOGIN_PER_MINUTE: '100000' } });
      apps.push(t);
      const email = `phone-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
      const reg = await t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { email, password: PASSWORD },
      });
      expect(reg.statusCode).toBe(201);
      const owner = {
        headers: { authorization: `Bearer ${reg.json<{ access_token: string }>().access_token}` },
      };
      const token = (await makeToken(t, owner, 'read')).token;
      /** a ClientLogin relayed by the web role (loopback, a trusted proxy) for an app at `ip` */
      const clientLogin = (ip: string, passwd: string, as = email) =>
        t.app.inject({
          method: 'POST',
          url: '/accounts/ClientLogin',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': ip, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ Email: as, Passwd: passwd, service: 'reader' }).toString(),
        });
      const login = (ip: string, password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': ip },
          payload: { email, password },
        });
      return { email, token, clientLogin, login };
    }

    it('slows failed ClientLogins on one account from one address with Retry-After; the right token waits too', async () => {
      const { token, clientLogin } = await setup();
      const statuses: number[] = [];
      for (let i = 0; i < freePerAddress + 1; i++)
        statuses.push((await clientLogin('203.0.113.7', `ais_pat_guess_${i}`)).statusCode);
      expect(statuses).toEqual(Array(freePerAddress + 1).fill(401));
      const delayed = await clientLogin('203.0.113.7', 'ais_pat_guess_more');
      expect(delayed.statusCode).toBe(429);
      expect(delayed.json().error.code).toBe('sign_in_delayed');
      const retry = Number(delayed.headers['retry-after']);
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(maxDelaySeconds);
      // during the delay even the right token waits: the delay is not a way to test guesses
      expect((await clientLogin('203.0.113.7', token)).statusCode).toBe(429);
      // another address of the owner is not held up by that one address's failures
      const other = await clientLogin('198.51.100.20', token);
      expect(other.statusCode).toBe(200);
      expect(other.body).toContain(`Auth=${token}\n`);
    });

    it('shares the counts with /auth/login: the account is the e-mail, whatever its case', async () => {
      const { email, clientLogin, login } = await setup();
      for (let i = 0; i < freePerAddress + 1; i++)
        expect((await clientLogin('203.0.113.9', `ais_pat_guess_${i}`, email.toUpperCase())).statusCode).toBe(
          401,
        );
      // the web sign-in of that account from that address now waits as well
      const web = await login('203.0.113.9', PASSWORD);
      expect(web.statusCode).toBe(429);
      expect(web.json().error.code).toBe('sign_in_delayed');
      // a different account from the same address is not slowed
      expect(
        (await clientLogin('203.0.113.9', 'ais_pat_guess', 'someone-else@example.test')).statusCode,
      ).toBe(401);
    });
  },
);
