import type { EnabledMetrics } from './articles.ports.js';

/** how long the enabled metric keys are kept when nothing in this process changed them */
export const ENABLED_METRICS_TTL_MS = 10_000;

/**
 * The catalog's enabled metric keys, which every list sorted by a metric checks its key against,
 * read once and kept instead of a query a request. A change made through this process's catalog
 * (`invalidate`) shows at once; one made by another process within `ttlMs`, except that a key
 * not among the kept ones is looked for again at once (`fresh`: a metric just added). A failed
 * read is not kept.
 */
export class CachedEnabledMetrics implements EnabledMetrics {
  private cached: { keys: Promise<string[]>; at: number } | null = null;

  constructor(
    private readonly inner: EnabledMetrics,
    private readonly ttlMs = ENABLED_METRICS_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async enabledKeys(opts: { fresh?: boolean } = {}): Promise<string[]> {
    const t = this.now();
    if (opts.fresh || !this.cached || t - this.cached.at >= this.ttlMs) {
      const keys = this.inner.enabledKeys();
      const entry = { keys, at: t };
      this.cached = entry;
      keys.catch(() => {
        if (this.cached === entry) this.cached = null;
      });
    }
    // a copy: a caller may not change what the next one reads
    return [...(await this.cached.keys)];
  }

  invalidate(): void {
    this.cached = null;
  }
}
