/**
 * Ports shared by several use cases. Adapters live in src/infrastructure and are injected by the
 * composition root; tests inject the same adapters against real peers (or the memory cache).
 */

/** Key-value cache with TTLs: Redis in production, an in-memory map on the embedded default. */
export interface KeyValueCache {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** SET NX: true when the key was absent and is now set */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  incrBy(key: string, by?: number): Promise<number>;
  /** increments and sets the TTL when the key is new; the window counter of a rate limiter */
  incrWithTtl(key: string, ttlSeconds: number): Promise<number>;
  /**
   * Atomically: when `onceKey` is absent, set it with the TTL and increment `counterKey`; true when
   * it counted. One round trip, and no moment where the first is set but the second not.
   */
  incrOnce(onceKey: string, ttlSeconds: number, counterKey: string): Promise<boolean>;
  /**
   * Reads and deletes each key atomically (GETDEL), all in one round trip; the values in the order
   * of `keys`, null for an absent key. What was read can no longer be counted twice.
   */
  take(keys: readonly string[]): Promise<(string | null)[]>;
  del(...keys: string[]): Promise<void>;
  /** the keys starting with prefix; iteration is lazy and safe on large key spaces */
  scan(prefix: string, batch?: number): AsyncIterable<string[]>;
  ttl(key: string): Promise<number>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Structured logger: `event` names the dot-named log event (docs/decisions/0020-log-events.md). */
export interface Logger {
  debug(fields: Record<string, unknown>, msg?: string): void;
  info(fields: Record<string, unknown>, msg?: string): void;
  warn(fields: Record<string, unknown>, msg?: string): void;
  error(fields: Record<string, unknown>, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** Runs fn once across all workers for the given key (a Postgres advisory lock); false if busy. */
export interface JobLock {
  runExclusive<T>(key: string, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
}
