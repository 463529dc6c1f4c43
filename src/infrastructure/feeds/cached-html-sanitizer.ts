import { createHash } from 'node:crypto';
import type { HtmlSanitizer, KeyedHtmlSanitizer } from '../../application/articles/articles.ports.js';

/** memory for sanitised HTML kept between reader views (UTF-16: two bytes a character) */
export const SANITIZED_CACHE_BYTES = 32 * 1024 * 1024;
/** what an entry costs besides its text (its key, the map's slot): also bounds entries without HTML */
const ENTRY_BYTES = 128;

/**
 * The reader view's sanitised HTML, computed once per content (and base URL) and kept, least
 * recently used dropped first: sanitising a 150 KB article costs tens of milliseconds of the event
 * loop, reading it back from here a hash of its input. Views of the same content at the same time
 * share one computation. Keyed by the content's hash, so an article whose content changes is
 * sanitised anew and no invalidation is needed.
 *
 * A caller that knows a key changing with its input (an article's row version) asks by that key
 * (`sanitizeKeyed`): a kept key costs neither reading the input (up to 200 KB from the database)
 * nor hashing it. Both kinds of entries share one memory bound.
 */
export class CachedHtmlSanitizer implements KeyedHtmlSanitizer {
  private readonly done = new Map<string, string | null>();
  private readonly running = new Map<string, Promise<string>>();
  private bytes = 0;

  constructor(
    private readonly inner: HtmlSanitizer,
    private readonly maxBytes = SANITIZED_CACHE_BYTES,
  ) {}

  async sanitizeKeyed(
    key: string,
    baseUrl: string,
    read: () => Promise<string | null>,
  ): Promise<string | null> {
    // a caller's key cannot be a content key: those are base64, which has no ':'
    const own = `key:${key}`;
    const hit = this.kept(own);
    if (hit !== undefined) return hit;
    const html = await read();
    const out = html === null ? null : await this.sanitize(html, baseUrl);
    this.keep(own, out);
    return out;
  }

  async sanitize(html: string, baseUrl: string): Promise<string> {
    const key = createHash('sha256').update(baseUrl).update('\0').update(html).digest('base64');
    const hit = this.kept(key);
    if (hit != null) return hit;
    const pending = this.running.get(key);
    if (pending) return pending;
    const work = this.inner.sanitize(html, baseUrl).then(
      (out) => {
        this.running.delete(key);
        this.keep(key, out);
        return out;
      },
      (err: unknown) => {
        this.running.delete(key);
        throw err;
      },
    );
    this.running.set(key, work);
    return work;
  }

  /** a kept entry, made the most recently used; undefined when none */
  private kept(key: string): string | null | undefined {
    const hit = this.done.get(key);
    if (hit !== undefined) {
      // a Map keeps insertion order: re-inserting makes this the most recently used
      this.done.delete(key);
      this.done.set(key, hit);
    }
    return hit;
  }

  private keep(key: string, out: string | null): void {
    const size = sizeOf(out);
    if (size > this.maxBytes) return;
    const old = this.done.get(key);
    if (old !== undefined) this.bytes -= sizeOf(old);
    this.done.delete(key);
    this.done.set(key, out);
    this.bytes += size;
    for (const [k, v] of this.done) {
      if (this.bytes <= this.maxBytes) break;
      this.done.delete(k);
      this.bytes -= sizeOf(v);
    }
  }
}

/** an entry's memory: its text (UTF-16; counted under each of its keys, though the string is shared) and its slot */
function sizeOf(out: string | null): number {
  return ENTRY_BYTES + (out === null ? 0 : out.length * 2);
}
