import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import {
  isTranslationCall,
  makeItem,
  modelReply,
  rssFeed,
  seedPipeline,
  startFeedServer,
} from '../helpers/pipeline-factories.js';
import { startAndWait } from '../helpers/runs.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { OpenAiPeer, type ChatCall } from '../peers/openai-peer.js';

/**
 * Issue 30: one model call per article (summary, tags and the zh-TW title and summary from one
 * answer to a JSON schema), a second call only when that answer has no usable zh-TW part, and the
 * tokens of every call counted per article (its metadata), per run (GET /admin/runs/{id}) and per
 * day and purpose (the Service tab's GET /admin/service-stats). The peer's usage is 10 prompt and
 * 5 completion tokens a call.
 */
describe('one model call per article, and what the calls cost', () => {
  let t: TestApp;
  let feeds: HttpPeer;
  let llm: OpenAiPeer;
  let admin: { headers: Record<string, string> };
  let reply: (call: ChatCall) => string | { status: number; body?: unknown } = (call) => modelReply(call);
  const N = 3;

  beforeAll(async () => {
    llm = await new OpenAiPeer((call) => reply(call)).start();
    feeds = await startFeedServer({});
    t = await buildTestApp({});
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([llm?.stop(), feeds?.stop()]);
  });
  afterEach(async () => {
    await t.container.database.db.execute(sql`delete from providers`);
    llm.chatCalls = [];
    reply = (call) => modelReply(call);
  });

  /** a new topic and feed of N new articles, one run over it; answers the run and its articles */
  async function scrape() {
    const items = Array.from({ length: N }, () => makeItem());
    const path = `/feed-${Math.random().toString(36).slice(2)}.xml`;
    feeds.setHandler(
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed(items)),
    );
    const { sourceIds } = await seedPipeline(t.app, admin.headers, {
      sources: [{ name: 'Feed', url: `${feeds.url}${path}` }],
      providerBaseUrl: llm.baseUrl,
    });
    const run = await startAndWait(t.app, admin.headers, `/admin/sources/${sourceIds[0]}/fetch`);
    const rows = rowsOf<{
      title: string;
      summary: string;
      translations: Record<string, { title: string; summary: string | null }>;
      metadata: { llm_usage?: { calls: number; prompt_tokens: number; completion_tokens: number } };
      processing_status: string;
    }>(
      await t.container.database.db.execute(
        sql`select title, summary, translations, metadata, processing_status from articles where run_id = ${run.id}`,
      ),
    );
    return { run, rows, items };
  }

  /** GET /admin/runs/{id}'s llm part, once the recorder's one-second write has landed */
  async function runUsage(id: string, calls: number) {
    for (let i = 0; i < 200; i++) {
      const body = (await t.app.inject({ url: `/admin/runs/${id}`, headers: admin.headers })).json<{
        llm: { calls: number; by_purpose: { purpose: string; calls: number; prompt_tokens: number }[] };
      }>();
      if (body.llm.calls >= calls) return body.llm;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the run never showed its model calls');
  }

  it('asks once per article and stores the summary, tags and translation of that one answer', async () => {
    const { run, rows } = await scrape();
    expect(run.status).toBe('completed');
    expect(llm.chatCalls).toHaveLength(N);
    expect(llm.chatCalls.filter(isTranslationCall)).toEqual([]);
    // the schema is asked for (structured output), the fixed instructions first
    expect(llm.chatCalls[0]!.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'article_analysis', strict: true },
    });
    expect(llm.chatCalls[0]!.messages[0]!.role).toBe('system');
    for (const a of rows) {
      expect(a.processing_status).toBe('completed');
      expect(a.summary).toBe('A model summary of the article.');
      expect(a.translations['zh-TW']).toEqual({
        title: `譯：${a.title}`,
        summary: '摘要：A model summary of the article.',
      });
      expect(a.metadata.llm_usage).toEqual({ calls: 1, prompt_tokens: 10, completion_tokens: 5 });
    }
    const usage = await runUsage(run.id, N);
    expect(usage).toEqual({
      calls: N,
      prompt_tokens: 10 * N,
      completion_tokens: 5 * N,
      by_purpose: [{ purpose: 'analysis', calls: N, prompt_tokens: 10 * N, completion_tokens: 5 * N }],
    });
    const stats = (await t.app.inject({ url: '/admin/service-stats?days=1', headers: admin.headers })).json<{
      llm_usage_per_day: { day: string; purpose: string; calls: number }[];
    }>();
    expect(stats.llm_usage_per_day).toContainEqual(
      expect.objectContaining({ day: new Date().toISOString().slice(0, 10), purpose: 'analysis' }),
    );
  });

  it('asks for the translation alone when the answer misses its zh-TW part, and counts both calls', async () => {
    reply = (call) => modelReply(call, { zhInAnalysis: false });
    const { run, rows } = await scrape();
    expect(run.status).toBe('completed');
    expect(llm.chatCalls).toHaveLength(2 * N);
    expect(llm.chatCalls.filter(isTranslationCall)).toHaveLength(N);
    for (const a of rows) {
      expect(a.translations['zh-TW']!.title).toBe(`譯：${a.title}`);
      expect(a.metadata.llm_usage).toEqual({ calls: 2, prompt_tokens: 20, completion_tokens: 10 });
    }
    const usage = await runUsage(run.id, 2 * N);
    expect(usage.by_purpose.map((p) => [p.purpose, p.calls])).toEqual([
      ['analysis', N],
      ['translation', N],
    ]);
  });

  it('falls back to a JSON object for a provider that refuses the schema, and still makes one call', async () => {
    reply = (call) =>
      call.response_format?.type === 'json_schema'
        ? { status: 400, body: { error: { message: "response_format 'json_schema' is not supported" } } }
        : modelReply(call);
    const { run, rows } = await scrape();
    expect(run.status).toBe('completed');
    const answered = llm.chatCalls.filter((c) => c.response_format?.type === 'json_object');
    expect(answered).toHaveLength(N);
    expect(answered.filter(isTranslationCall)).toEqual([]);
    for (const a of rows) expect(a.translations['zh-TW']!.title).toBe(`譯：${a.title}`);
  });
});
