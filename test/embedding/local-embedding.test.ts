import { afterEach, describe, expect, it } from 'vitest';
import { threadId } from 'node:worker_threads';
import {
  builtInLexicalFunction,
  LocalEmbeddingProvider,
} from '../../src/infrastructure/embedding/local-embedding.provider.js';
import { cosineSimilarity, SPARSE_VOCABULARY_SIZE } from '../../src/application/shared/embedding.js';

const slowModule = new URL('./slow-embedder.ts', import.meta.url);
const providers: LocalEmbeddingProvider[] = [];
const track = (p: LocalEmbeddingProvider) => (providers.push(p), p);
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
});

describe('local embedding provider', () => {
  it('runs a synchronous function in a worker thread: the event loop keeps ticking', async () => {
    const p = track(
      new LocalEmbeddingProvider({
        kind: 'dense',
        dimension: 2,
        function: { mode: 'sync', moduleUrl: slowModule, exportName: 'slowEmbed', options: { blockMs: 400 } },
      }),
    );
    await p.embed(['warm up']); // the worker starts once
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    const vectors = (await p.embed(['abc', 'de'])) as number[][];
    clearInterval(timer);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    // a blocked loop would tick at most once; a free one ticks about 40 times in 400 ms
    expect(ticks).toBeGreaterThan(15);
    expect(vectors[0]![0]).not.toBe(threadId);
    expect(vectors[0]![0]).toBe(p.workerThreadId);
    expect(vectors.map((v) => v[1])).toEqual([3, 2]);
  });

  it('raises what the function throws, and a wrong dimension', async () => {
    const failing = track(
      new LocalEmbeddingProvider({
        kind: 'dense',
        dimension: 2,
        function: { mode: 'sync', moduleUrl: slowModule, exportName: 'failingEmbed' },
      }),
    );
    await expect(failing.embed(['x'])).rejects.toThrow(/model not loaded/);
    const wrong = new LocalEmbeddingProvider({
      kind: 'dense',
      dimension: 3,
      function: { mode: 'async', fn: async (texts) => texts.map(() => [1, 2]) },
    });
    await expect(wrong.embed(['x'])).rejects.toThrow(/2 dimensions, expected 3/);
    const nan = new LocalEmbeddingProvider({
      kind: 'dense',
      dimension: 2,
      function: { mode: 'async', fn: async (texts) => texts.map(() => [1, Number.NaN]) },
    });
    await expect(nan.embed(['x'])).rejects.toThrow(/non-finite/);
  });

  it('stops an idle worker and starts a new one when work comes again', async () => {
    const p = track(
      new LocalEmbeddingProvider({
        kind: 'dense',
        dimension: 2,
        idleMs: 50,
        function: { mode: 'sync', moduleUrl: slowModule, exportName: 'slowEmbed', options: { blockMs: 0 } },
      }),
    );
    const [first] = (await p.embed(['a'])) as number[][];
    await new Promise((r) => setTimeout(r, 200));
    expect(p.workerThreadId).toBeNull();
    const [second] = (await p.embed(['a'])) as number[][];
    expect(second![0]).not.toBe(first![0]);
  });

  it('runs an async function in-process', async () => {
    const p = new LocalEmbeddingProvider({
      kind: 'sparse',
      function: { mode: 'async', fn: async (texts) => texts.map((t) => ({ '7': t.length })) },
    });
    expect(await p.embed(['abcd'])).toEqual([{ '7': 4 }]);
    expect(p.dimension).toBeNull();
  });

  it('the built-in lexical embedder: normalized dense vectors, sparse maps over 30522 tokens', async () => {
    const dense = track(
      new LocalEmbeddingProvider({
        kind: 'dense',
        dimension: 64,
        function: builtInLexicalFunction('dense', 64),
      }),
    );
    const [a, b, c] = (await dense.embed(['Machine Learning', 'machine-learning', 'Robotics'])) as number[][];
    expect(a).toHaveLength(64);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 6);
    expect(cosineSimilarity(a!, b!)).toBeCloseTo(1, 6);
    expect(cosineSimilarity(a!, c!)).toBeLessThan(0.5);

    const sparse = track(
      new LocalEmbeddingProvider({ kind: 'sparse', function: builtInLexicalFunction('sparse', 0) }),
    );
    const [s] = (await sparse.embed(['large language models'])) as Record<string, number>[];
    const keys = Object.keys(s!).map(Number);
    expect(keys.length).toBeGreaterThan(5);
    expect(keys.every((k) => Number.isInteger(k) && k >= 0 && k < SPARSE_VOCABULARY_SIZE)).toBe(true);
  });
});
