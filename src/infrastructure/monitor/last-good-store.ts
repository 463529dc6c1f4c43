import { LRUCache } from 'lru-cache';
import type { LastGood, LastGoodStore } from '../../application/monitoring/monitoring.ports.js';

/** key, Date and entry bookkeeping on top of the answer's text */
const ENTRY_OVERHEAD = 256;

/**
 * The monitoring proxy's last good answers, bounded by size (lru-cache `maxSize`, MONITOR_CACHE_MAX_MB,
 * default 64 MB) and by count: the least recently used answer goes first, and an answer larger than
 * the whole budget is not kept at all. Answers are kept as text (one byte per character for the
 * ASCII JSON of the stores), so the budget is what they take in memory, not a count of questions.
 */
export class LruLastGoodStore implements LastGoodStore {
  private readonly cache: LRUCache<string, LastGood>;

  constructor(maxBytes: number, maxEntries = 500) {
    this.cache = new LRUCache<string, LastGood>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (v, key) => v.text.length + key.length + ENTRY_OVERHEAD,
    });
  }

  get(key: string): LastGood | undefined {
    return this.cache.get(key);
  }

  set(key: string, value: LastGood): void {
    this.cache.set(key, value);
  }

  /** bytes held (for tests and diagnostics) */
  get size(): number {
    return this.cache.calculatedSize;
  }
}
