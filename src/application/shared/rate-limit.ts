import type { KeyValueCache } from './ports.js';

export interface RateLimitRule {
  /** bucket name, e.g. `auth` or `view` */
  name: string;
  /** requests allowed per window per key */
  max: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
}

/**
 * Fixed-window counter per rule and key (client IP) in the key-value cache: Redis-backed when Redis
 * is configured, so every api replica shares the same counts; in memory on the embedded default.
 * A cache outage fails open: rate limiting must never take the login page down with it.
 */
export class RateLimiter {
  constructor(
    private readonly cache: KeyValueCache,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(rule: RateLimitRule, key: string): Promise<RateLimitDecision> {
    const window = Math.floor(this.now() / 1000 / rule.windowSeconds);
    const resetSeconds = (window + 1) * rule.windowSeconds - Math.floor(this.now() / 1000);
    try {
      const count = await this.cache.incrWithTtl(
        `ratelimit:${rule.name}:${window}:${key}`,
        rule.windowSeconds + 1,
      );
      return { allowed: count <= rule.max, remaining: Math.max(0, rule.max - count), resetSeconds };
    } catch {
      return { allowed: true, remaining: rule.max, resetSeconds };
    }
  }
}
