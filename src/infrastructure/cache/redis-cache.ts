import { Redis } from 'ioredis';
import type { KeyValueCache } from '../../application/shared/ports.js';

/**
 * Lua commands, registered with defineCommand: ioredis sends EVALSHA (the script body only once per
 * connection, on NOSCRIPT) and prefixes their keys like those of any other command.
 */
const SCRIPTS = {
  // INCR that sets the TTL only when the key is created (a fixed window).
  incrWithTtl: {
    numberOfKeys: 1,
    lua: `local v = redis.call('INCR', KEYS[1]) if v == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return v`,
  },
  // For each (once, counter) pair of KEYS: SET NX EX on the once key (TTL in ARGV, one per pair);
  // only when it was set, INCR the counter. 1 or 0 per pair.
  incrOnceMany: {
    lua: `local r = {} for i = 1, #KEYS, 2 do
      local n = (i + 1) / 2
      if redis.call('SET', KEYS[i], '1', 'EX', ARGV[n], 'NX') then redis.call('INCR', KEYS[i + 1]) r[n] = 1 else r[n] = 0 end
    end return r`,
  },
  // GETDEL of every key; a missing key is false in Lua, a nil in the reply.
  takeAll: {
    lua: `local r = {} for i, k in ipairs(KEYS) do r[i] = redis.call('GETDEL', k) end return r`,
  },
};
interface Scripts {
  incrWithTtl(key: string, ttlSeconds: number): Promise<number>;
  /** the first argument is the number of keys; then the (once, counter) pairs, then one TTL per pair */
  incrOnceMany(numberOfKeys: number, ...keysThenTtls: (string | number)[]): Promise<number[]>;
  /** the first argument is the number of keys that follow */
  takeAll(numberOfKeys: number, ...keys: string[]): Promise<(string | null)[]>;
}

interface PendingOnce {
  onceKey: string;
  counterKey: string;
  ttlSeconds: number;
  resolve(counted: boolean): void;
  reject(err: unknown): void;
}
/** pairs sent in one script call at most */
const ONCE_BATCH_MAX = 256;

export class RedisCache implements KeyValueCache {
  readonly kind = 'redis' as const;
  private readonly redis: Redis;
  /** incrOnce calls of this turn of the event loop, sent together at its end */
  private pendingOnce: PendingOnce[] = [];

  constructor(url: string, opts: { keyPrefix?: string } = {}) {
    this.redis = new Redis(url, {
      keyPrefix: opts.keyPrefix,
      maxRetriesPerRequest: 2,
      // a command never waits longer than this, also while the connection flaps (callers fall back)
      commandTimeout: 2000,
      connectTimeout: 2000,
      enableOfflineQueue: true,
      autoResendUnfulfilledCommands: false,
      // concurrent commands (the view path's SET NX + INCR from many requests) share round trips
      enableAutoPipelining: true,
      lazyConnect: false,
    });
    for (const [name, definition] of Object.entries(SCRIPTS)) this.redis.defineCommand(name, definition);
    // connection errors surface on the failing command; the client reconnects by itself
    this.redis.on('error', () => {});
    // Queue commands only until the first connection: after that a command issued while Redis is
    // away fails at once (callers fall back), instead of running later, after its caller has
    // already given up on it and counted the work elsewhere.
    this.redis.once('ready', () => {
      this.redis.options.enableOfflineQueue = false;
    });
  }

  private get scripts() {
    return this.redis as unknown as Scripts;
  }

  private get prefix() {
    return this.redis.options.keyPrefix ?? '';
  }

  async get(key: string) {
    return this.redis.get(key);
  }

  async set(key: string, value: string, ttlSeconds?: number) {
    if (ttlSeconds) await this.redis.set(key, value, 'EX', ttlSeconds);
    else await this.redis.set(key, value);
  }

  async setIfAbsent(key: string, value: string, ttlSeconds: number) {
    return (await this.redis.set(key, value, 'EX', ttlSeconds, 'NX')) === 'OK';
  }

  async incrBy(key: string, by = 1) {
    return this.redis.incrby(key, by);
  }

  async incrWithTtl(key: string, ttlSeconds: number) {
    return Number(await this.scripts.incrWithTtl(key, ttlSeconds));
  }

  /**
   * The view path's hot command. Calls made in one turn of the event loop (the requests of one
   * poll phase) go to Redis as one script call: one command for Redis to run and one for the
   * client to track instead of one each. The script is atomic, so each pair is counted exactly
   * as a call of its own would be; when it fails, every call of the batch fails (and the caller
   * counts those views in process, as for a single failed call).
   */
  incrOnce(onceKey: string, ttlSeconds: number, counterKey: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (!this.pendingOnce.length) setImmediate(() => this.sendIncrOnce());
      this.pendingOnce.push({ onceKey, counterKey, ttlSeconds, resolve, reject });
    });
  }

  private sendIncrOnce(): void {
    const batch = this.pendingOnce.splice(0, ONCE_BATCH_MAX);
    if (this.pendingOnce.length) setImmediate(() => this.sendIncrOnce());
    const keys = batch.flatMap((p) => [p.onceKey, p.counterKey]);
    this.scripts.incrOnceMany(keys.length, ...keys, ...batch.map((p) => p.ttlSeconds)).then(
      (counted) => batch.forEach((p, i) => p.resolve(Number(counted[i]) === 1)),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  }

  async take(keys: readonly string[]) {
    if (!keys.length) return [];
    return this.scripts.takeAll(keys.length, ...keys);
  }

  async del(...keys: string[]) {
    if (keys.length) await this.redis.del(...keys);
  }

  async *scan(prefix: string, batch = 500): AsyncIterable<string[]> {
    let cursor = '0';
    const strip = this.prefix.length;
    do {
      const [next, keys] = await this.redis.scan(
        cursor,
        'MATCH',
        `${this.prefix}${escapeGlob(prefix)}*`,
        'COUNT',
        batch,
      );
      cursor = next;
      if (keys.length) yield keys.map((k) => k.slice(strip));
    } while (cursor !== '0');
  }

  async ttl(key: string) {
    return this.redis.ttl(key);
  }

  async ping() {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close() {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}

const escapeGlob = (s: string) => s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
