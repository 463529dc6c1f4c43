/** A dense embedding: a fixed-length list of floats. */
export type DenseVector = number[];
/** A sparse embedding: token id (as a string) → weight. */
export type SparseVector = Record<string, number>;
export type Vector = DenseVector | SparseVector;

export type EmbeddingKind = 'dense' | 'sparse';

/** Size of the sparse token space: the 30,522 token ids of a BERT WordPiece vocabulary, as sparse embedding services answer. */
export const SPARSE_VOCABULARY_SIZE = 30522;

/**
 * Turns texts into vectors, one per text and in the same order. Implemented by the endpoint
 * provider (HTTP `{url}/embed`) and the local provider (an in-process function).
 */
export interface EmbeddingProvider {
  readonly kind: EmbeddingKind;
  /** width of dense vectors; null for sparse providers */
  readonly dimension: number | null;
  embed(texts: string[]): Promise<Vector[]>;
}

/** Raised when a provider answers with vectors that do not fit its declared shape. */
export class EmbeddingShapeError extends Error {
  override name = 'EmbeddingShapeError';
}

/**
 * Checks what a provider returned: one vector per text, dense vectors of exactly `dimension`
 * finite numbers, sparse maps of finite weights over the vocabulary.
 */
export function validateVectors(
  raw: unknown,
  expected: { kind: EmbeddingKind; dimension: number | null; count: number },
): Vector[] {
  if (!Array.isArray(raw)) throw new EmbeddingShapeError(`expected an array of ${expected.kind} vectors`);
  if (raw.length !== expected.count) {
    throw new EmbeddingShapeError(`expected ${expected.count} vectors, got ${raw.length}`);
  }
  return raw.map((v: unknown, i) => {
    if (expected.kind === 'dense') {
      if (!Array.isArray(v)) throw new EmbeddingShapeError(`vector ${i} is not an array`);
      if (expected.dimension !== null && v.length !== expected.dimension) {
        throw new EmbeddingShapeError(
          `vector ${i} has ${v.length} dimensions, expected ${expected.dimension}`,
        );
      }
      if (!v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbeddingShapeError(`vector ${i} holds a non-finite value`);
      }
      return v as DenseVector;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      throw new EmbeddingShapeError(`sparse vector ${i} is not an object`);
    }
    for (const [k, w] of Object.entries(v)) {
      if (typeof w !== 'number' || !Number.isFinite(w)) {
        throw new EmbeddingShapeError(`sparse vector ${i} has a non-finite weight for ${k}`);
      }
    }
    return v as SparseVector;
  });
}

/** Cosine similarity of two vectors of the same kind; 0 when they cannot be compared. */
export function cosineSimilarity(a: Vector, b: Vector): number {
  const denseA = Array.isArray(a);
  if (denseA !== Array.isArray(b)) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  if (denseA) {
    const x = a;
    const y = b as DenseVector;
    if (x.length !== y.length) return 0;
    for (let i = 0; i < x.length; i++) {
      dot += x[i]! * y[i]!;
      na += x[i]! * x[i]!;
      nb += y[i]! * y[i]!;
    }
  } else {
    const x = a as SparseVector;
    const y = b as SparseVector;
    for (const [k, w] of Object.entries(x)) {
      na += w * w;
      const o = y[k];
      if (o !== undefined) dot += w * o;
    }
    for (const w of Object.values(y)) nb += w * w;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}
