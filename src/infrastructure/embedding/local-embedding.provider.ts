import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  EmbeddingShapeError,
  validateVectors,
  type EmbeddingKind,
  type EmbeddingProvider,
  type Vector,
} from '../../application/shared/embedding.js';

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

/**
 * The worker's code: imports the module holding the synchronous function once, then answers
 * `{id, texts}` with `{id, vectors}` or `{id, error}`. Inline (eval) so that it needs no loader;
 * when the function lives in a .ts source (dev, tests), tsx's loader is registered first.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  if (workerData.tsxApi) (await import(workerData.tsxApi)).register();
  const mod = await import(workerData.moduleUrl);
  const fn = mod[workerData.exportName];
  if (typeof fn !== 'function') throw new Error(workerData.moduleUrl + ' has no function ' + workerData.exportName);
  parentPort.on('message', (msg) => {
    try {
      parentPort.postMessage({ id: msg.id, vectors: fn(msg.texts, workerData.options) });
    } catch (err) {
      parentPort.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
    }
  });
  parentPort.postMessage({ ready: true });
})();
`;

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly kind: EmbeddingKind;
  readonly dimension: number | null;
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: LocalEmbeddingOptions) {
    this.kind = opts.kind;
    this.dimension = opts.kind === 'dense' ? (opts.dimension ?? null) : null;
    if (opts.kind === 'dense' && !this.dimension)
      throw new Error('local embedding: dimension is required for dense');
  }

  /** id of the thread that runs a synchronous function (tests check it is not the main one) */
  get workerThreadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  async embed(texts: string[]): Promise<Vector[]> {
    if (texts.length === 0) return [];
    const f = this.opts.function;
    const raw = f.mode === 'async' ? await f.fn(texts) : await this.inWorker(texts);
    try {
      return validateVectors(raw, { kind: this.kind, dimension: this.dimension, count: texts.length });
    } catch (err) {
      if (err instanceof EmbeddingShapeError) throw new Error(`local embedding function: ${err.message}`);
      throw err;
    }
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
  }

  private async inWorker(texts: string[]): Promise<unknown> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const worker = await this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });
  }

  private start(): Promise<Worker> {
    const f = this.opts.function;
    if (f.mode !== 'sync') throw new Error('not a worker function');
    if (!this.worker) {
      const moduleUrl = String(f.moduleUrl);
      const tsxApi = moduleUrl.endsWith('.ts')
        ? // require.resolve finds the CommonJS entry; the worker needs the ESM one beside it
          pathToFileURL(
            createRequire(import.meta.url)
              .resolve('tsx/esm/api')
              .replace(/\.cjs$/, '.mjs'),
          ).href
        : undefined;
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { moduleUrl, exportName: f.exportName, options: f.options, tsxApi },
      });
      // an idle worker must not keep the process alive
      worker.unref();
      this.worker = worker;
      this.ready = new Promise<void>((resolve, reject) => {
        worker.once('error', reject);
        worker.on('message', (msg: { ready?: boolean; id?: number; vectors?: unknown; error?: string }) => {
          if (msg.ready) return resolve();
          const p = this.pending.get(msg.id!);
          if (!p) return;
          this.pending.delete(msg.id!);
          if (msg.error !== undefined) p.reject(new Error(`local embedding function failed: ${msg.error}`));
          else p.resolve(msg.vectors);
          if (this.pending.size === 0) this.scheduleIdleStop();
        });
      });
      worker.on('error', (err) => this.fail(worker, err));
      worker.on('exit', (code) => this.fail(worker, new Error(`embedding worker exited with code ${code}`)));
    }
    const worker = this.worker;
    return this.ready!.then(() => worker);
  }

  private scheduleIdleStop() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.pending.size === 0) void this.close();
    }, this.opts.idleMs ?? 60_000);
    this.idleTimer.unref();
  }

  private fail(worker: Worker, err: Error) {
    if (this.worker !== worker) return;
    this.worker = null;
    this.ready = null;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
