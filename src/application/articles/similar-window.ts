import {
  cosineSimilarity,
  type EmbeddingProvider,
  type SparseVector,
  type Vector,
} from '../shared/embedding.js';
import type { EmbeddedArticle, TopicHead } from './articles.ports.js';

/**
 * An article of a window. A dense vector is kept scaled to length 1 and quantised to 8 bits
 * (QUANT a unit): 384 bytes for a 384-wide vector instead of 3 KB as a number[], so a topic's
 * window of 5,000 takes ~2.5 MB, and a dot product of two is the cosine to within ~0.01. A sparse
 * vector is kept as it is. The text is only kept while the vector is missing (it is what gets
 * embedded).
 */
export interface WindowEntry {
  id: string;
  text: string;
  unit: Int8Array | null;
  sparse: SparseVector | null;
}

const QUANT = 127;

export const hasVector = (e: WindowEntry) => e.unit !== null || e.sparse !== null;

export function entryOf(a: EmbeddedArticle): WindowEntry {
  const e: WindowEntry = { id: a.id, text: a.text, unit: null, sparse: null };
  setVector(e, a.vector);
  return e;
}

/** sets a vector (read, or computed after the window was read) */
export function setVector(e: WindowEntry, v: Vector | null): void {
  e.unit = null;
  e.sparse = null;
  if (v && !Array.isArray(v)) e.sparse = v;
  if (Array.isArray(v)) {
    let norm = 0;
    for (const x of v) norm += x * x;
    // a zero vector is a vector all the same (not embedded again), similar to nothing
    const scale = norm === 0 ? 0 : QUANT / Math.sqrt(norm);
    e.unit = new Int8Array(norm === 0 ? 0 : v.length);
    for (let i = 0; i < e.unit.length; i++) e.unit[i] = Math.round(v[i]! * scale);
  }
  if (hasVector(e)) e.text = '';
}

/**
 * Embeds the entries that lack a vector, `batch` texts a call, and saves the vectors found: the
 * fill of the similar-articles windows and of the Ask windows alike.
 */
export async function embedMissing(
  missing: WindowEntry[],
  embedder: Pick<EmbeddingProvider, 'embed'>,
  save: (saved: { articleId: string; vector: Vector }[]) => Promise<unknown>,
  batch: number,
): Promise<void> {
  for (let i = 0; i < missing.length; i += batch) {
    const slice = missing.slice(i, i + batch);
    // read before setVector, which lets go of the text once the entry has its vector
    const vectors = await embedder.embed(slice.map((a) => a.text));
    const saved = slice.flatMap((a, n) => {
      const vector = vectors[n] ?? null;
      setVector(a, vector);
      return vector ? [{ articleId: a.id, vector }] : [];
    });
    await save(saved);
  }
}

/** cosine of two entries: a dot product of unit vectors when dense, the general formula when sparse */
export function similarity(a: WindowEntry, b: WindowEntry): number {
  if (a.unit && b.unit) {
    if (a.unit.length !== b.unit.length) return 0;
    let dot = 0;
    for (let i = 0; i < a.unit.length; i++) dot += a.unit[i]! * b.unit[i]!;
    return dot / (QUANT * QUANT);
  }
  return a.sparse && b.sparse ? cosineSimilarity(a.sparse, b.sparse) : 0;
}

/** the identity of a topic's newest article: a new article in the topic changes it */
export const headKey = (h: TopicHead | null) => (h ? `${h.scrapedAt.getTime()}/${h.id}` : '-');

/** A topic's most recent articles, newest first, as read when `since` was its newest article. */
export interface TopicWindow {
  since: TopicHead | null;
  /** headKey(since) */
  head: string;
  entries: WindowEntry[];
  byId: Map<string, WindowEntry>;
  loadedAt: number;
  bytes: number;
}

export function windowOf(since: TopicHead | null, entries: WindowEntry[], loadedAt: number): TopicWindow {
  return {
    since,
    head: headKey(since),
    entries,
    byId: new Map(entries.map((e) => [e.id, e])),
    loadedAt,
    bytes: 0,
  };
}

/** rough heap size of an entry: its text, its unit vector, a sparse vector's entries */
export function sizeOf(e: WindowEntry): number {
  const sparse = e.sparse ? Object.keys(e.sparse).length * 48 : 0;
  return 200 + e.text.length * 2 + (e.unit ? e.unit.byteLength : 0) + sparse;
}

/**
 * Windows of the topics read lately, least recently used dropped first past `maxBytes` (a dense
 * 384-wide window of 5,000 articles is ~2.5 MB).
 */
export class TopicWindows {
  private readonly windows = new Map<string, TopicWindow>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(topicId: string): TopicWindow | undefined {
    const w = this.windows.get(topicId);
    if (w) {
      this.windows.delete(topicId);
      this.windows.set(topicId, w);
    }
    return w;
  }

  /** keeps (or keeps again, after its vectors were filled) a window */
  set(topicId: string, w: TopicWindow): void {
    const old = this.windows.get(topicId);
    w.bytes = w.entries.reduce((n, e) => n + sizeOf(e), 0);
    if (old) this.bytes -= old.bytes;
    this.windows.delete(topicId);
    this.windows.set(topicId, w);
    this.bytes += w.bytes;
    for (const [k, v] of this.windows) {
      if (this.bytes <= this.maxBytes || k === topicId) break;
      this.windows.delete(k);
      this.bytes -= v.bytes;
    }
  }
}

/** A bounded map, least recently used dropped first. */
export class LruMap<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
}
