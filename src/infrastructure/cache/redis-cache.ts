import { Redis } from 'ioredis';
import type { KeyValueCache } from '../../application/shared/ports.js';

/**
 * Turns String.prototype back into a fast-mode object after ioredis loaded
 * (docs/decisions/0165-string-prototype-kept-fast.md). Its RESP decoder declares `class
 * VerbatimString extends String`; V8 moves an object that gains an heir into dictionary mode, and for
 * String.prototype nothing in ordinary code moves it back, so every string method optimized code
 * calls from then on (`charCodeAt`, `slice`, `indexOf`...) is looked up in a hash table: a loop over
 * a text's characters ran about 4x slower in every process that loaded this module. A property
 * stored on an object inheriting from a prototype makes V8 turn that prototype fast again.
 */
export function keepStringPrototypeFast(): void {
  const heir = Object.create(String.prototype) as { fast?: boolean };
  heir.fast = true;
}
keepStringPrototypeFast();

/**
 * Lua commands, registered with defineCommand: ioredis sends EVALSHA (the script body only once per
 * connection, on NOSCRIPT) and prefixes their keys like those of any other command.
 */
const SCRIPTS = {
  // INCR that sets the TTL only when the key is created (a fixed window).
  // For each key: INCR, and EXPIRE (TTL in ARGV, one per key) only when the INCR created it. The
  // counts, in order.
  incrWithTtlMany: {
    lua: `local r = {} for i, k in ipairs(KEYS) do
      local v = redis.call('INCR', k) if v == 1 then redis.call('EXPIRE', k, ARGV[i]) end r[i] = v
    end return r`,
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
  /** the first argument is the number of keys; then the keys, then one TTL per key */
  incrWithTtlMany(numberOfKeys: number, ...keysThenTtls: (string | number)[]): Promise<number[]>;
  /** the first argument is the number of keys; then the (once, counter) pairs, then one TTL per pair */
  incrOnceMany(numberOfKeys: number, ...keysThenTtls: (string | number)[]): Promise<number[]>;
  /** the first argument is the number of keys that follow */
  takeAll(numberOfKeys: number, ...keys: string[]): Promise<(string | null)[]>;
}

/** calls sent in one script call at most */
const BATCH_MAX = 256;

/**
 * Calls made in one turn of the event loop (the requests of one poll phase), sent to Redis as one
 * script call at the end of the turn: one command for Redis to run and one for the client to track
 * instead of one each. When the call fails, every call of the batch fails with its error.
 */
class TurnBatch<I, O> {
  private pending: { item: I; resolve(out: O): void; reject(err: unknown): void }[] = [];

  constructor(private readonly send: (items: I[]) => Promise<O[]>) {}

  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      if (!this.pending.length) setImmediate(() => this.flush());
      this.pending.push({ item, resolve, reject });
    });
  }

  private flush(): void {
    const batch = this.pending.splice(0, BATCH_MAX);
    if (this.pending.length) setImmediate(() => this.flush());
    this.send(batch.map((p) => p.item)).then(
      (out) => batch.forEach((p, i) => p.resolve(out[i]!)),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  }
}

export class RedisCache implements KeyValueCache {
  readonly kind = 'redis' as const;
  private readonly redis: Redis;
  /** the view path's dedup-and-count calls of one event-loop turn */
  private readonly onceBatch = new TurnBatch<
    { onceKey: string; counterKey: string; ttlSeconds: number },
    boolean
  >(async (items) => {
    const keys = items.flatMap((p) => [p.onceKey, p.counterKey]);
    const counted = await this.scripts.incrOnceMany(keys.length, ...keys, ...items.map((p) => p.ttlSeconds));
    return counted.map((c) => Number(c) === 1);
  });
  /** the rate limits' window counters of one event-loop turn */
  private readonly ttlBatch = new TurnBatch<{ key: string; ttlSeconds: number }, number>(async (items) => {
    const counts = await this.scripts.incrWithTtlMany(
      items.length,
      ...items.map((p) => p.key),
      ...items.map((p) => p.ttlSeconds),
    );
    return counts.map(Number);
  });

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
      // the turn batches are one command a turn already: a pipeline around each would only add
      // its own objects and a tick
      autoPipeliningIgnoredCommands: ['incrOnceMany', 'incrWithTtlMany'],
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

  /**
   * A rate limit's window counter (the hot command of every limited route, the view route among
   * them): the calls of one event-loop turn go to Redis as one atomic script call (TurnBatch).
   */
  incrWithTtl(key: string, ttlSeconds: number): Promise<number> {
    return this.ttlBatch.add({ key, ttlSeconds });
  }

  /**
   * The view path's hot command, batched per event-loop turn like incrWithTtl. The script is
   * atomic, so each pair is counted exactly as a call of its own would be; when it fails, every
   * call of the batch fails (and the caller counts those views in process, as for a single failed
   * call).
   */
  incrOnce(onceKey: string, ttlSeconds: number, counterKey: string): Promise<boolean> {
    return this.onceBatch.add({ onceKey, counterKey, ttlSeconds });
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
