import {
  SPARSE_VOCABULARY_SIZE,
  type DenseVector,
  type EmbeddingKind,
  type SparseVector,
} from '../../application/shared/embedding.js';

/**
 * The built-in embedder used when no embedding endpoint is configured: hashed word unigrams,
 * word bigrams and character trigrams (the "hashing trick"). It knows no semantics, but spelling
 * variants ("Machine-Learning", "machine learning", "large language models" / "... model") land
 * close together, which is what tag normalization and similar-group detection need offline.
 */

export interface LexicalOptions {
  kind: EmbeddingKind;
  /** width of dense vectors */
  dimension?: number;
}

/** FNV-1a, 32-bit: fast, stable across processes and platforms. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Crude plural folding, so that "models" and "model" share their word feature. */
const stem = (w: string) =>
  w.length <= 3 || !w.endsWith('s') || w.endsWith('ss')
    ? w
    : w.endsWith('ies')
      ? `${w.slice(0, -3)}y`
      : w.slice(0, -1);

function features(text: string): [string, number][] {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const stems = words.map(stem);
  const out: [string, number][] = [];
  for (let i = 0; i < stems.length; i++) {
    const w = stems[i]!;
    out.push([`w:${w}`, 1]);
    if (i + 1 < stems.length) out.push([`b:${w} ${stems[i + 1]}`, 0.5]);
    const padded = `#${w}#`;
    for (let j = 0; j + 3 <= padded.length; j++) out.push([`c:${padded.slice(j, j + 3)}`, 0.5]);
  }
  return out;
}

function normalize<T extends number[] | Record<string, number>>(v: T): T {
  const values = Object.values(v) as number[];
  const norm = Math.sqrt(values.reduce((s, x) => s + x * x, 0));
  if (norm === 0) return v;
  for (const k of Object.keys(v)) (v as Record<string, number>)[k] = (v as Record<string, number>)[k]! / norm;
  return v;
}

export function lexicalDense(text: string, dimension: number): DenseVector {
  const v = new Array<number>(dimension).fill(0);
  for (const [f, w] of features(text)) {
    const h = fnv1a(f);
    // a second hash picks the sign so that collisions cancel out on average
    const sign = fnv1a(`s:${f}`) & 1 ? 1 : -1;
    v[h % dimension]! += sign * w;
  }
  return normalize(v);
}

export function lexicalSparse(text: string): SparseVector {
  const v: SparseVector = {};
  for (const [f, w] of features(text)) {
    const k = String(fnv1a(f) % SPARSE_VOCABULARY_SIZE);
    v[k] = (v[k] ?? 0) + w;
  }
  return normalize(v);
}

/** The local provider's function: synchronous, so the local provider runs it in a worker thread. */
export function lexicalEmbed(texts: string[], options: LexicalOptions): (DenseVector | SparseVector)[] {
  if (options.kind === 'sparse') return texts.map(lexicalSparse);
  const dimension = options.dimension ?? 384;
  return texts.map((t) => lexicalDense(t, dimension));
}
