import { sql } from 'drizzle-orm';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { OpenAiLanguageModelFactory } from '../../src/infrastructure/llm/openai-language-model.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import {
  makeItem,
  modelReply,
  rssFeed,
  seedPipeline,
  startFeedServer,
} from '../helpers/pipeline-factories.js';
import { startAndWait } from '../helpers/runs.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { OpenAiPeer } from '../peers/openai-peer.js';

/**
 * Issue 30: a model provider's rate limit (429 with Retry-After past N concurrent requests) slows
 * the article jobs down instead of failing them. The model client learns the provider's limit:
 * it halves its own on a 429, holds new requests until the Retry-After has passed and sends the
 * refused one again, so no job retry is spent (the jobs here get none) and no article fails.
 */
describe('a model provider that answers 429 past its concurrency limit', () => {
  const provider = (baseUrl: string) => ({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'limited',
    type: 'text' as const,
    baseUrl,
    model: 'm',
    imageModel: null,
    apiKey: 'sk-test',
    isActive: true,
  });

  it('the model client waits out Retry-After and settles at the provider limit, every call answered', async () => {
    const llm = await new OpenAiPeer(() => '{"ok": true}').start();
    llm.latencyMs = 100;
    llm.maxConcurrent = 3;
    llm.retryAfterSeconds = 0.3;
    try {
      const lines: { event?: string; limit?: number }[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(JSON.parse(chunk.toString()) as { event?: string });
            done();
          },
        }),
      );
      // the SDK's own retries off: a 429 that reached it would fail the call
      const factory = new OpenAiLanguageModelFactory({ maxRetries: 0, maxConcurrency: 12, logger });
      const ask = (i: number) =>
        factory
          .forProvider(provider(llm.baseUrl))
          .complete({ messages: [{ role: 'user', content: `${i}` }] });
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(i)));
      const seconds = (Date.now() - started) / 1000;
      expect(answers.every((a) => a.text === '{"ok": true}')).toBe(true);
      expect(llm.chatCalls).toHaveLength(30);
      // the first burst met the limit, then the client kept (nearly) under it
      expect(llm.rateLimited).toBeGreaterThan(0);
      expect(llm.rateLimited).toBeLessThan(30);
      // the burst's Retry-After was waited for. The least it can take: the 0.3 s pause, during which
      // at most the three calls the provider accepted first are answered, then the 27 left at most
      // three at a time, 100 ms each (without the pause: 1.0 s)
      expect(seconds).toBeGreaterThanOrEqual(0.3 + 0.9);
      const cuts = lines.filter((l) => l.event === 'llm.rate_limited');
      expect(cuts.length).toBeGreaterThan(0);
      expect(cuts[0]!.limit).toBeLessThanOrEqual(6);
    } finally {
      await llm.stop();
    }
  });

  describe('in the pipeline', () => {
    let t: TestApp;
    let feeds: HttpPeer;
    let llm: OpenAiPeer;
    let admin: { headers: Record<string, string> };

    beforeAll(async () => {
      llm = await new OpenAiPeer((call) => modelReply(call)).start();
      llm.latencyMs = 150;
      llm.maxConcurrent = 1;
      llm.retryAfterSeconds = 0.3;
      feeds = await startFeedServer({});
      // eight article jobs at once against a provider that takes one; a job gets no retry
      t = await buildTestApp({
        env: { JOB_CONCURRENCY: '8', LLM_MAX_CONCURRENCY: '8', JOB_RETRY_LIMIT: '0' },
      });
      admin = await t.login('admin');
    });
    afterAll(async () => {
      await t?.close();
      await Promise.all([llm?.stop(), feeds?.stop()]);
    });

    it('429 with Retry-After slows the queue without a failed article', async () => {
      const N = 16;
      const items = Array.from({ length: N }, () => makeItem());
      feeds.setHandler(
        (_req, res) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed(items)),
      );
      const { sourceIds } = await seedPipeline(t.app, admin.headers, {
        sources: [{ name: 'Feed', url: `${feeds.url}/feed.xml` }],
        providerBaseUrl: llm.baseUrl,
      });
      const run = await startAndWait(t.app, admin.headers, `/admin/sources/${sourceIds[0]}/fetch`);
      expect(run.status).toBe('completed');
      const rows = rowsOf<{ processing_status: string; summary: string | null; zh: string | null }>(
        await t.container.database.db.execute(
          sql`select processing_status, summary, translations->'zh-TW'->>'title' as zh from articles where run_id = ${run.id}`,
        ),
      );
      expect(rows).toHaveLength(N);
      expect(rows.every((r) => r.processing_status === 'completed' && r.summary && r.zh)).toBe(true);
      // the provider did refuse calls, and each refused one was answered later: one call per article
      expect(llm.rateLimited).toBeGreaterThan(0);
      expect(llm.chatCalls).toHaveLength(N);
      // the client learned the limit after the first burst instead of trying the calls again and again
      expect(llm.rateLimited).toBeLessThan(N);
      const dead = await t.app.inject({ url: '/admin/jobs/dead', headers: admin.headers });
      expect(dead.json<{ total: number }>().total).toBe(0);
    });
  });
});
