import { describe, expect, it } from 'vitest';
import { LoginThrottle, LOGIN_THROTTLE_DEFAULTS } from '../../src/application/auth/login-throttle.js';
import { MemoryCache } from '../../src/infrastructure/cache/memory-cache.js';

/** The throttle on the memory cache with a clock the test moves (the TTLs follow it). */
function setup() {
  let now = Date.UTC(2026, 0, 5, 9);
  const cache = new MemoryCache({ now: () => now });
  const throttle = new LoginThrottle(cache);
  return {
    throttle,
    advance: (seconds: number) => (now += seconds * 1000),
    admit: (client: string, email = 'admin@example.test') => throttle.admit(email, client),
  };
}
const { freePerAddress, freePerAccount, maxDelaySeconds } = LOGIN_THROTTLE_DEFAULTS;

describe('LoginThrottle: per-account sign-in attempts, a growing delay and never a wall', () => {
  it('spaces attempts from one address out by a doubling delay, bounded by the maximum', async () => {
    const t = setup();
    for (let i = 0; i < freePerAddress; i++) expect(await t.admit('203.0.113.7')).toEqual({ allowed: true });
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      expect(await t.admit('203.0.113.7')).toEqual({ allowed: true });
      // the check took a while; the wait runs from the answer
      t.advance(1);
      await t.throttle.failed('admin@example.test', '203.0.113.7');
      const refused = await t.admit('203.0.113.7');
      expect(refused.allowed).toBe(false);
      const wait = (refused as { retryAfterSeconds: number }).retryAfterSeconds;
      waits.push(wait);
      // attempts during the wait change nothing: it does not grow
      for (let j = 0; j < 5; j++) await t.admit('203.0.113.7');
      expect(await t.admit('203.0.113.7')).toEqual({ allowed: false, retryAfterSeconds: wait });
      t.advance(wait);
    }
    expect(waits).toEqual([2, 4, 8, 16, 30, 30, 30, 30, 30]);
    expect(Math.max(...waits)).toBe(maxDelaySeconds);
  });

  it('a successful sign-in clears the counts: the next failures are free again', async () => {
    const t = setup();
    for (let i = 0; i < freePerAddress + 1; i++) expect((await t.admit('198.51.100.4')).allowed).toBe(true);
    expect((await t.admit('198.51.100.4')).allowed).toBe(false);
    t.advance(maxDelaySeconds);
    expect((await t.admit('198.51.100.4')).allowed).toBe(true);
    await t.throttle.succeeded('Admin@Example.test ', '198.51.100.4');
    for (let i = 0; i < freePerAddress; i++) expect((await t.admit('198.51.100.4')).allowed).toBe(true);
  });

  it('an attack from many addresses is spaced out as a whole, and the real user gets in', async () => {
    const t = setup();
    // the admin signed in from home before: that address is known to the account
    await t.admit('192.0.2.10');
    await t.throttle.succeeded('admin@example.test', '192.0.2.10');

    let admitted = 0;
    let worstWait = 0;
    for (let i = 0; i < 600; i++) {
      // 200 addresses, three rounds, one attempt a second: fast enough to keep every gate busy
      const d = await t.admit(`10.${Math.floor(i / 200)}.${i % 200}.1`);
      if (d.allowed) admitted++;
      else worstWait = Math.max(worstWait, d.retryAfterSeconds);
      t.advance(1);
    }
    // the free attempts, then about one per maximum delay over the 10 minutes
    expect(admitted).toBeLessThanOrEqual(freePerAccount + 600 / maxDelaySeconds + 5);
    expect(worstWait).toBeLessThanOrEqual(maxDelaySeconds);

    // during the attack: the known address goes through at once, every time
    for (let i = 0; i < 3; i++) expect(await t.admit('192.0.2.10')).toEqual({ allowed: true });
    // a new address of the real user waits at most the maximum delay
    const fresh = await t.admit('192.0.2.77');
    expect(fresh.allowed).toBe(false);
    expect((fresh as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(maxDelaySeconds);
    t.advance(maxDelaySeconds);
    expect((await t.admit('192.0.2.77')).allowed).toBe(true);
  });

  it('lets one attempt of a parallel burst through per delay, not one per request', async () => {
    const t = setup();
    for (let i = 0; i < freePerAccount; i++) await t.admit(`10.9.0.${i}`);
    const burst = await Promise.all(Array.from({ length: 50 }, (_, i) => t.admit(`10.8.0.${i}`)));
    expect(burst.filter((d) => d.allowed)).toHaveLength(1);
  });

  it('treats e-mails as the sign-in reads them, and accounts apart', async () => {
    const t = setup();
    for (let i = 0; i < freePerAddress + 1; i++) await t.admit('203.0.113.9', ' ADMIN@example.test');
    expect((await t.admit('203.0.113.9', 'admin@example.test')).allowed).toBe(false);
    expect((await t.admit('203.0.113.9', 'someone-else@example.test')).allowed).toBe(true);
  });
});
