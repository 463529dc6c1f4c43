import type { KeyValueCache } from '../../application/shared/ports.js';

interface Entry {
  value: string;
  expiresAt: number | null;
}

export interface MemoryCacheOptions {
  /** upper bound of the keys and values held, in bytes (estimated); default 64 MB */
  maxBytes?: number;
  now?: () => number;
}

/** per entry: the Map slot, the Entry object and the string headers, roughly */
const ENTRY_OVERHEAD = 96;
const sizeOf = (key: string, value: string) => ENTRY_OVERHEAD + 2 * (key.length + value.length);

/**
 * In-process cache with TTLs for the embedded default; passes the same contract as Redis.
 *
 * Bounded like Redis under `maxmemory-policy volatile-lru`: keys with a TTL (view de-duplication,
 * rate-limit windows: everything keyed by client input) are evicted least recently used first when
 * the size cap is reached; keys without a TTL (the view counters) are never evicted, so a count is
 * never lost before the flush takes it (docs/decisions/0016-bounded-memory.md).
 */
export class MemoryCache implements KeyValueCache {
  readonly kind = 'memory' as const;
  /** keys without a TTL, never evicted */
  private readonly durable = new Map<string, Entry>();
  /** keys with a TTL, in least-recently-used order (a Map iterates in insertion order) */
  private readonly volatile = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  /** keys evicted by the size cap since start (for tests and diagnostics) */
  evictions = 0;

  constructor(opts: MemoryCacheOptions | (() => number) = {}) {
    const o = typeof opts === 'function' ? { now: opts } : opts;
    this.now = o.now ?? Date.now;
    this.maxBytes = o.maxBytes ?? 64 * 1024 * 1024;
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  /** estimated bytes held */
  get size(): number {
    return this.bytes;
  }

  private live(key: string, touch = false): Entry | undefined {
    const d = this.durable.get(key);
    if (d) return d;
    const e = this.volatile.get(key);
    if (!e) return undefined;
    if (e.expiresAt !== null && e.expiresAt <= this.now()) {
      this.remove(key);
      return undefined;
    }
    if (touch) {
      this.volatile.delete(key);
      this.volatile.set(key, e);
    }
    return e;
  }

  private remove(key: string): void {
    const e = this.durable.get(key) ?? this.volatile.get(key);
    if (!e) return;
    this.bytes -= sizeOf(key, e.value);
    this.durable.delete(key);
    this.volatile.delete(key);
  }

  private put(key: string, value: string, expiresAt: number | null): void {
    this.remove(key);
    (expiresAt === null ? this.durable : this.volatile).set(key, { value, expiresAt });
    this.bytes += sizeOf(key, value);
    if (this.bytes > this.maxBytes) this.evict(key);
  }

  /** least recently used keys with a TTL go first; the key just written stays */
  private evict(keep: string): void {
    for (const key of this.volatile.keys()) {
      if (this.bytes <= this.maxBytes) return;
      if (key === keep) continue;
      this.remove(key);
      this.evictions++;
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, e] of this.volatile) if (e.expiresAt !== null && e.expiresAt <= now) this.remove(key);
  }

  async get(key: string) {
    return this.live(key, true)?.value ?? null;
  }

  async set(key: string, value: string, ttlSeconds?: number) {
    this.put(key, value, ttlSeconds ? this.now() + ttlSeconds * 1000 : null);
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    if (this.live(key, true)) return false;
    this.put(key, value, this.now() + ttlSeconds * 1000);
    return true;
  }

  async incrBy(key: string, by = 1) {
    const e = this.live(key);
    const current = e ? Number(e.value) : 0;
    if (!Number.isInteger(current)) throw new Error(`value at ${key} is not an integer`);
    const next = current + by;
    this.put(key, String(next), e?.expiresAt ?? null);
    return next;
  }

  async incrWithTtl(key: string, ttlSeconds: number) {
    const e = this.live(key);
    const next = (e ? Number(e.value) : 0) + 1;
    this.put(key, String(next), e?.expiresAt ?? this.now() + ttlSeconds * 1000);
    return next;
  }

  async incrOnce(onceKey: string, ttlSeconds: number, counterKey: string) {
    if (!(await this.setIfAbsent(onceKey, '1', ttlSeconds))) return false;
    await this.incrBy(counterKey, 1);
    return true;
  }

  async take(keys: readonly string[]) {
    return keys.map((key) => {
      const e = this.live(key);
      this.remove(key);
      return e?.value ?? null;
    });
  }

  async del(...keys: string[]) {
    for (const k of keys) this.remove(k);
  }

  async *scan(prefix: string, batch = 500): AsyncIterable<string[]> {
    let chunk: string[] = [];
    for (const key of [...this.durable.keys(), ...this.volatile.keys()]) {
      if (!key.startsWith(prefix) || !this.live(key)) continue;
      chunk.push(key);
      if (chunk.length >= batch) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length) yield chunk;
  }

  async ttl(key: string) {
    const e = this.live(key);
    if (!e) return -2;
    if (e.expiresAt === null) return -1;
    return Math.ceil((e.expiresAt - this.now()) / 1000);
  }

  async ping() {
    return true;
  }

  async close() {
    clearInterval(this.sweeper);
    this.durable.clear();
    this.volatile.clear();
    this.bytes = 0;
  }
}
