import {
  EmbeddingShapeError,
  validateVectors,
  type EmbeddingKind,
  type EmbeddingProvider,
  type Vector,
} from '../../application/shared/embedding.js';
import { FunctionPool, FunctionPoolError } from '../workers/function-pool.js';

/**
 * Where the local provider's function lives. An async function runs in-process. A synchronous
 * function would block the event loop, so it runs in a worker thread; functions cannot cross
 * threads, so it is named by the module exporting it (`fn(texts, options)`).
 */
export type LocalEmbeddingFunction =
  | { mode: 'async'; fn: (texts: string[]) => Promise<unknown> }
  | { mode: 'sync'; moduleUrl: string | URL; exportName: string; options?: unknown };

export interface LocalEmbeddingOptions {
  kind: EmbeddingKind;
  /** required for dense */
  dimension?: number | null;
  function: LocalEmbeddingFunction;
  /** the worker stops after this long without work (memory of the idle process); default 60 s */
  idleMs?: number;
}

/** The lexical embedder of lexical-embedder.ts, run in a worker thread. */
export const builtInLexicalFunction = (kind: EmbeddingKind, dimension: number): LocalEmbeddingFunction => ({
  mode: 'sync',
  moduleUrl: new URL(`./lexical-embedder${extension()}`, import.meta.url),
  exportName: 'lexicalEmbed',
  options: { kind, dimension },
});

// sources run through tsx (dev, tests) end in .ts; the build emits .js
function extension(): string {
  return new URL(import.meta.url).pathname.endsWith('.ts') ? '.ts' : '.js';
}

export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly kind: EmbeddingKind;
  readonly dimension: number | null;
  /** one worker thread for a synchronous function, made by the first call after start or close */
  private pool: FunctionPool | null = null;

  constructor(private readonly opts: LocalEmbeddingOptions) {
    this.kind = opts.kind;
    this.dimension = opts.kind === 'dense' ? (opts.dimension ?? null) : null;
    if (opts.kind === 'dense' && !this.dimension)
      throw new Error('local embedding: dimension is required for dense');
  }

  /** id of the thread that runs a synchronous function (tests check it is not the main one) */
  get workerThreadId(): number | null {
    return this.pool?.threadIds[0] ?? null;
  }

  async embed(texts: string[]): Promise<Vector[]> {
    if (texts.length === 0) return [];
    const f = this.opts.function;
    const raw = f.mode === 'async' ? await f.fn(texts) : await this.inWorker(f, texts);
    try {
      return validateVectors(raw, { kind: this.kind, dimension: this.dimension, count: texts.length });
    } catch (err) {
      if (err instanceof EmbeddingShapeError) throw new Error(`local embedding function: ${err.message}`);
      throw err;
    }
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.close();
  }

  private async inWorker(f: Extract<LocalEmbeddingFunction, { mode: 'sync' }>, texts: string[]) {
    // a synchronous function: one worker thread (function-pool.ts), stopped after idleMs
    this.pool ??= new FunctionPool({
      moduleUrl: f.moduleUrl,
      name: 'embedding worker',
      threads: 1,
      idleMs: this.opts.idleMs ?? 60_000,
    });
    try {
      return await this.pool.run<unknown>(f.exportName, [texts, f.options]);
    } catch (err) {
      if (err instanceof FunctionPoolError) throw err;
      throw new Error(`local embedding function failed: ${(err as Error).message}`);
    }
  }
}
