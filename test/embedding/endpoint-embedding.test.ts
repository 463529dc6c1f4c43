import { afterEach, describe, expect, it } from 'vitest';
import { HttpPeer, sendJson } from '../peers/http-peer.js';
import { EmbeddingPeer, peerDense, peerSparse } from '../peers/embedding-peer.js';
import {
  EmbeddingHttpError,
  EndpointEmbeddingProvider,
} from '../../src/infrastructure/embedding/endpoint-embedding.provider.js';
import { isAppError } from '../../src/domain/errors.js';

const peers: HttpPeer[] = [];
const started = async <T extends HttpPeer>(p: T, port = 0) => (peers.push(p), p.start(port));
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop().catch(() => {})));
});

/** a loopback port nobody listens on (a peer was there and is gone) */
async function freePort(): Promise<number> {
  const p = await new EmbeddingPeer().start();
  const port = Number(new URL(p.url).port);
  await p.stop();
  return port;
}

describe('embedding endpoint provider', () => {
  it('posts {texts} to {url}/embed and reads the dense key', async () => {
    const peer = await started(new EmbeddingPeer(4));
    const p = new EndpointEmbeddingProvider({ url: `${peer.url}/`, dimension: 4 });
    expect(await p.embed(['ab', 'cde'])).toEqual([peerDense('ab', 4), peerDense('cde', 4)]);
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]!.path).toBe('/embed');
    expect(peer.requests[0]!.json()).toEqual({ texts: ['ab', 'cde'] });
    expect(peer.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('reads the sparse key when response_key is sparse (no dimension needed)', async () => {
    const peer = await started(new EmbeddingPeer(4));
    const p = new EndpointEmbeddingProvider({ url: peer.url, responseKey: 'sparse' });
    expect(p.dimension).toBeNull();
    expect(await p.embed(['abc'])).toEqual([peerSparse('abc')]);
  });

  it('sends the api_key as a Bearer token', async () => {
    const peer = await started(new EmbeddingPeer(4));
    const p = new EndpointEmbeddingProvider({ url: peer.url, dimension: 4, apiKey: 'sk-embed-123' });
    await p.embed(['x']);
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer sk-embed-123');
  });

  it('refuses vectors of the wrong dimension', async () => {
    const peer = await started(new EmbeddingPeer(5));
    const p = new EndpointEmbeddingProvider({ url: peer.url, dimension: 4 });
    await expect(p.embed(['x'])).rejects.toMatchObject({ code: 'embedding_invalid_response' });
  });

  it('raises an HTTP status error at once, without retry', async () => {
    const peer = await started(new HttpPeer((_req, res) => sendJson(res, 500, { detail: 'model crashed' })));
    const p = new EndpointEmbeddingProvider({
      url: peer.url,
      dimension: 4,
      retries: 3,
      retryDelaySeconds: 0.01,
    });
    const err = await p.embed(['x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingHttpError);
    expect((err as EmbeddingHttpError).upstreamStatus).toBe(500);
    expect(peer.requests).toHaveLength(1);
  });

  it('retries a refused connection with growing delays until the service is up', async () => {
    const port = await freePort();
    const peer = new EmbeddingPeer(4);
    const retries: { at: number; delayMs: number }[] = [];
    const p = new EndpointEmbeddingProvider({
      url: `http://127.0.0.1:${port}`,
      dimension: 4,
      retries: 4,
      retryDelaySeconds: 0.1,
      onRetry: ({ delayMs }) => {
        retries.push({ at: Date.now(), delayMs });
        // cold start: the service comes up while the client waits for its third attempt
        if (retries.length === 2) void started(peer, port);
      },
    });
    const t0 = Date.now();
    const vectors = await p.embed(['ab']);
    expect(vectors).toEqual([peerDense('ab', 4)]);
    expect(retries.map((r) => r.delayMs)).toEqual([100, 200]);
    // the measured gaps grow with the delays: attempt 2 waited >= 100 ms, attempt 3 >= 200 ms
    expect(retries[1]!.at - retries[0]!.at).toBeGreaterThanOrEqual(95);
    expect(Date.now() - retries[1]!.at).toBeGreaterThanOrEqual(195);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(295);
    expect(peer.requests).toHaveLength(1);
  });

  it('gives up after `retries` retries with an upstream error', async () => {
    const port = await freePort();
    let attempts = 0;
    const p = new EndpointEmbeddingProvider({
      url: `http://127.0.0.1:${port}`,
      dimension: 4,
      retries: 2,
      retryDelaySeconds: 0.01,
      onRetry: () => attempts++,
    });
    const err = await p.embed(['x']).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('embedding_unreachable');
    expect(attempts).toBe(2);
  });

  it('holds rpm under load: calls beyond the limit wait for the window instead of failing', async () => {
    const peer = await started(new EmbeddingPeer(2));
    const at: number[] = [];
    peer.setHandler((req, res) => {
      at.push(Date.now());
      sendJson(res, 200, { dense: (req.json() as { texts: string[] }).texts.map(() => [0.1, 0.2]) });
    });
    const windowMs = 600;
    const p = new EndpointEmbeddingProvider({
      url: peer.url,
      dimension: 2,
      rateLimit: { rpm: 5 },
      limiterTiming: {
        now: Date.now,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        minuteMs: windowMs,
      },
    });
    const t0 = Date.now();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => p.embed([`t${i}`])));
    expect(results).toHaveLength(10);
    expect(at).toHaveLength(10);
    at.sort((a, b) => a - b);
    // five go at once; the other five reach the peer only after the first window has passed
    expect(at.filter((x) => x - t0 < windowMs - 5)).toHaveLength(5);
    expect(at[5]! - t0).toBeGreaterThanOrEqual(windowMs - 5);
    // ...and they wait one window, not more
    expect(at[9]! - t0).toBeLessThan(2 * windowMs);
  });

  it('holds tpm, estimating tokens from text length', async () => {
    const peer = await started(new EmbeddingPeer(2));
    const p = new EndpointEmbeddingProvider({
      url: peer.url,
      dimension: 2,
      rateLimit: { tpm: 10 },
      limiterTiming: { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), minuteMs: 400 },
    });
    const t0 = Date.now();
    // 20 characters ≈ 5 tokens: two calls fit a window, the third waits
    await Promise.all([1, 2, 3].map(() => p.embed(['x'.repeat(20)])));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(395);
  });
});
