import type { KeyValueCache } from '../../application/shared/ports.js';

interface Entry {
  value: string;
  expiresAt: number | null;
}

/** In-process cache with TTLs for the embedded default; passes the same contract as Redis. */
export class MemoryCache implements KeyValueCache {
  readonly kind = 'memory' as const;
  private readonly map = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private live(key: string): Entry | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expiresAt !== null && e.expiresAt <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }

  private sweep(): void {
    for (const key of this.map.keys()) this.live(key);
  }

  async get(key: string) {
    return this.live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlSeconds?: number) {
    this.map.set(key, { value, expiresAt: ttlSeconds ? this.now() + ttlSeconds * 1000 : null });
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    if (this.live(key)) return false;
    this.map.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
    return true;
  }

  async incrBy(key: string, by = 1) {
    const e = this.live(key);
    const current = e ? Number(e.value) : 0;
    if (!Number.isInteger(current)) throw new Error(`value at ${key} is not an integer`);
    const next = current + by;
    this.map.set(key, { value: String(next), expiresAt: e?.expiresAt ?? null });
    return next;
  }

  async incrWithTtl(key: string, ttlSeconds: number) {
    const e = this.live(key);
    const next = (e ? Number(e.value) : 0) + 1;
    this.map.set(key, { value: String(next), expiresAt: e?.expiresAt ?? this.now() + ttlSeconds * 1000 });
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
      this.map.delete(key);
      return e?.value ?? null;
    });
  }

  async del(...keys: string[]) {
    for (const k of keys) this.map.delete(k);
  }

  async *scan(prefix: string, batch = 500): AsyncIterable<string[]> {
    let chunk: string[] = [];
    for (const key of [...this.map.keys()]) {
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
    this.map.clear();
  }
}
