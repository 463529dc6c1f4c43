import { createHash } from 'node:crypto';
import type { KeyValueCache } from '../shared/ports.js';

export interface LoginThrottleOptions {
  /** sign-in attempts on one account from one client address before they are spaced out */
  freePerAddress: number;
  /** attempts on one account from every address that has not signed in to it before */
  freePerAccount: number;
  /** the first spacing; it doubles with every further attempt */
  baseDelaySeconds: number;
  /** the longest wait: the worst a real user meets, whatever an attacker does */
  maxDelaySeconds: number;
  /** attempts are counted over this window from the first one; a successful sign-in resets them */
  windowSeconds: number;
  /** an address that signed in to the account is known to it this long */
  knownAddressSeconds: number;
}

export const LOGIN_THROTTLE_DEFAULTS: LoginThrottleOptions = {
  freePerAddress: 5,
  freePerAccount: 20,
  baseDelaySeconds: 2,
  // the sign-in page promises "at most half a minute" (errors.sign_in_delayed)
  maxDelaySeconds: 30,
  windowSeconds: 15 * 60,
  knownAddressSeconds: 30 * 24 * 3600,
};

export type LoginAdmission = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Scope {
  count: string;
  gate: string;
  free: number;
}

/**
 * Sign-in attempts per account, as well as per address (the route's per-address limit): past a few
 * free attempts, each further one on the account must wait a delay that doubles up to
 * `maxDelaySeconds`, a wait and never a wall. Two scopes count:
 * - the account from one address: someone guessing from their own address slows down only there;
 * - the account from everywhere, except addresses that signed in to it before: guessing spread over
 *   many addresses is spaced out as a whole, while the real user's own address is not held up by it.
 * An attempt past the free ones claims the scope's gate atomically (SET NX with the delay as TTL), so
 * a burst of parallel attempts gets one through per delay, not one per request. A successful sign-in
 * clears both scopes. Keys carry a hash of the e-mail, never the address itself; unknown e-mails are
 * treated exactly like known ones. A cache outage lets attempts through (as the rate limits do).
 */
export class LoginThrottle {
  constructor(
    private readonly cache: KeyValueCache,
    private readonly options: LoginThrottleOptions = LOGIN_THROTTLE_DEFAULTS,
  ) {}

  /** before the password is checked: may this attempt go ahead, or how long must it wait */
  async admit(email: string, client: string): Promise<LoginAdmission> {
    try {
      const scopes = await this.scopes(email, client);
      // a wait under way refuses at once, without counting: attempts made during it change nothing
      for (const s of scopes) {
        const wait = await this.waiting(s.gate);
        if (wait) return { allowed: false, retryAfterSeconds: wait };
      }
      const claimed: string[] = [];
      for (const s of scopes) {
        const n = await this.cache.incrWithTtl(s.count, this.options.windowSeconds);
        if (n <= s.free) continue;
        if (await this.cache.setIfAbsent(s.gate, '1', this.delay(n - s.free))) {
          claimed.push(s.gate);
          continue;
        }
        // a parallel attempt took this slot: the ones claimed for this attempt go back
        if (claimed.length) await this.cache.del(...claimed);
        return { allowed: false, retryAfterSeconds: (await this.waiting(s.gate)) || 1 };
      }
      return { allowed: true };
    } catch {
      return { allowed: true };
    }
  }

  /**
   * The password was wrong: where the attempt was past the free ones, its wait starts now, when the
   * answer goes out (the gate claimed at admission also covered the time the check took).
   */
  async failed(email: string, client: string): Promise<void> {
    try {
      for (const s of await this.scopes(email, client)) {
        const n = Number((await this.cache.get(s.count)) ?? 0);
        if (n > s.free) await this.cache.set(s.gate, '1', this.delay(n - s.free));
      }
    } catch {
      // the gate claimed at admission still holds
    }
  }

  /** the password was right: the account's counts start over and this address is known to it */
  async succeeded(email: string, client: string): Promise<void> {
    const account = accountKey(email);
    const pair = `${account}:${client}`;
    try {
      await this.cache.del(
        `login:count:${pair}`,
        `login:gate:${pair}`,
        `login:count:${account}`,
        `login:gate:${account}`,
      );
      await this.cache.set(`login:known:${pair}`, '1', this.options.knownAddressSeconds);
    } catch {
      // the sign-in stands; the counts expire with their window
    }
  }

  /** the delay after the k-th attempt past the free ones: base, 2 base, 4 base, ... up to the max */
  private delay(k: number): number {
    const { baseDelaySeconds: base, maxDelaySeconds: max } = this.options;
    return Math.min(max, base * 2 ** Math.min(k - 1, 30));
  }

  /** the account from this address; and from everywhere, unless this address signed in to it before */
  private async scopes(email: string, client: string): Promise<Scope[]> {
    const account = accountKey(email);
    const known = (await this.cache.get(`login:known:${account}:${client}`)) !== null;
    const scopes = [this.scope(`${account}:${client}`, this.options.freePerAddress)];
    if (!known) scopes.push(this.scope(account, this.options.freePerAccount));
    return scopes;
  }

  private scope(id: string, free: number): Scope {
    return { count: `login:count:${id}`, gate: `login:gate:${id}`, free };
  }

  /** seconds left on a gate, 0 when there is none */
  private async waiting(gate: string): Promise<number> {
    if ((await this.cache.get(gate)) === null) return 0;
    return Math.max(1, await this.cache.ttl(gate));
  }
}

/** the e-mail as the sign-in reads it (trimmed, lower case), hashed: keys name no one */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22);
}
