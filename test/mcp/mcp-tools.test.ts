import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { insertArticle, insertReport, insertTopic } from '../helpers/report-factories.js';
import { OtlpReceiver } from '../peers/otlp-receiver.js';
import { call, callError, connect, makeToken } from './mcp-helpers.js';

interface Ref {
  id: string;
  title: string;
  url: string;
  reader_url: string;
  is_read: boolean;
  is_favorited: boolean;
  published_at: string | null;
}

/**
 * The MCP server against a running service (listening on loopback), through the SDK's own Client
 * and Streamable HTTP transport: it lists the tools and calls each one; every answer carries the
 * articles' URLs; a read token cannot mark read or favorite; each call is a span of its own.
 */
describe('MCP server: the SDK client lists and calls every tool', () => {
  let t: TestApp;
  let receiver: OtlpReceiver;
  let mcpUrl: string;
  let baseUrl: string;
  let reader: { id: string; headers: Record<string, string> };
  let writer: Client;
  let readOnly: Client;
  let topic: { id: string; name: string; slug: string };
  const articles: { id: string; url: string; title: string }[] = [];

  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    t = await buildTestApp({
      env: {
        MONITOR_OTLP_USER: 'ingest-user',
        MONITOR_API_KEY: 'secret-key',
        MONITOR_OTLP_ENDPOINT: receiver.url,
        PUBLIC_BASE_URL: 'https://news.example.test',
      },
    });
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    mcpUrl = `${baseUrl}/mcp`;
    const db = t.container.database.db;
    topic = await insertTopic(db, 'Quantum Computing');
    const other = await insertTopic(db, 'Gardening');
    const day = (d: number) => new Date(Date.UTC(2025, 0, d, 12));
    for (const [title, at] of [
      ['Error-corrected logical qubits beat physical ones', day(6)],
      ['A quantum advantage in sampling, revisited', day(8)],
      ['Superconducting qubit coherence passes one millisecond', day(20)],
    ] as const)
      articles.push(await insertArticle(db, topic.id, { title, publishedAt: at, tags: ['qubits'] }));
    await insertArticle(db, other.id, { title: 'Tomatoes in a cold spring', publishedAt: day(7) });
    await insertReport(db, {
      topicId: topic.id,
      weekStartDate: '2025-01-06',
      title: 'Logical qubits come of age',
      articleIds: [articles[0]!.id, articles[1]!.id],
    });
    reader = await t.login('user');
    writer = await connect(mcpUrl, (await makeToken(t, reader, 'write')).token);
    readOnly = await connect(mcpUrl, (await makeToken(t, reader, 'read')).token);
  });
  afterAll(async () => {
    await Promise.all([writer?.close(), readOnly?.close()]);
    await t?.close();
    await receiver?.stop();
  });

  it('lists the seven tools with their input schemas and read/write hints', async () => {
    const { tools } = await readOnly.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([
      'get_article',
      'get_weekly_report',
      'list_topics',
      'mark_read',
      'search_articles',
      'set_favorite',
      'similar_articles',
    ]);
    const search = tools.find((x) => x.name === 'search_articles')!;
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual([
      'limit',
      'query',
      'since',
      'sort',
      'topic',
    ]);
    expect(search.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((x) => x.name === 'mark_read')!.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((x) => x.name === 'get_article')!.inputSchema.required).toEqual(['id']);
  });

  it('search_articles: query, topic by name or slug, since, sort and limit; each result with its url', async () => {
    const hits = await call<{ total: number; items: Ref[] }>(readOnly, 'search_articles', {
      query: 'qubits',
      topic: 'quantum computing',
    });
    expect(hits.items.map((i) => i.id).sort()).toEqual([articles[0]!.id, articles[2]!.id].sort());
    for (const item of hits.items) {
      expect(item.url).toMatch(/^https:\/\/example\.org\/papers\//);
      expect(item.reader_url).toBe(`https://news.example.test/articles/${item.id}`);
    }
    const since = await call<{ total: number; items: Ref[] }>(readOnly, 'search_articles', {
      topic: topic.slug,
      since: '2025-01-07',
      sort: 'published_at',
    });
    expect(since.items.map((i) => i.title)).toEqual([articles[2]!.title, articles[1]!.title]);
    const one = await call<{ total: number; items: Ref[] }>(readOnly, 'search_articles', {
      topic: topic.id,
      limit: 1,
      sort: 'published_at',
    });
    expect(one.items).toHaveLength(1);
    expect(one.total).toBe(3);
    expect(await callError(readOnly, 'search_articles', { topic: 'knitting' })).toMatch(/^topic_not_found: /);
  });

  it('get_article: the text and url, without marking it read', async () => {
    const a = await call<Ref & { content: string | null; summary: string }>(readOnly, 'get_article', {
      id: articles[0]!.id,
    });
    expect(a.url).toBe(articles[0]!.url);
    expect(a.summary).toContain(articles[0]!.title);
    expect(a.is_read).toBe(false);
    const viaApi = await t.app.inject({ method: 'GET', url: '/me/unread-counts', headers: reader.headers });
    expect(viaApi.json<{ total: number }>().total).toBe(3 + 1);
    expect(await callError(readOnly, 'get_article', { id: '00000000-0000-4000-8000-000000000000' })).toMatch(
      /^not_found: article not found/,
    );
  });

  it('list_topics: each topic with the url of its articles and feed', async () => {
    const { items } = await call<{
      items: { id: string; name: string; articles_url: string; feed_url: string }[];
    }>(readOnly, 'list_topics');
    const q = items.find((i) => i.id === topic.id)!;
    expect(q.name).toBe('Quantum Computing');
    expect(q.articles_url).toBe(`https://news.example.test/articles?topic=${topic.id}`);
    expect(q.feed_url).toBe(`https://news.example.test/feeds/topics/${topic.id}.atom`);
  });

  it('get_weekly_report: by topic and any day of the week; [N] cites sources[N-1] with their urls', async () => {
    const r = await call<{
      title: string;
      week_start_date: string;
      report_url: string;
      sources: { n: number; url: string; reader_url: string }[];
    }>(readOnly, 'get_weekly_report', { topic: topic.name, week: '2025-01-09' });
    expect(r.title).toBe('Logical qubits come of age');
    expect(r.week_start_date).toBe('2025-01-06');
    expect(r.sources.map((s) => s.n)).toEqual([1, 2]);
    expect(r.sources.map((s) => s.url)).toEqual([articles[0]!.url, articles[1]!.url]);
    expect(r.report_url).toContain('week=2025-01-06');
    // without a week: the latest completed one
    expect((await call<{ title: string }>(readOnly, 'get_weekly_report', { topic: topic.slug })).title).toBe(
      'Logical qubits come of age',
    );
    expect(await callError(readOnly, 'get_weekly_report', { topic: topic.slug, week: '2024-03-04' })).toMatch(
      /^report_not_found: /,
    );
  });

  it('similar_articles: articles of the same topic, each with its url', async () => {
    const r = await call<{ article_id: string; items: Ref[] }>(readOnly, 'similar_articles', {
      id: articles[0]!.id,
    });
    expect(r.article_id).toBe(articles[0]!.id);
    expect(r.items.length).toBeGreaterThan(0);
    const ids = articles.map((a) => a.id);
    for (const item of r.items) {
      expect(ids).toContain(item.id);
      expect(item.url).toMatch(/^https:\/\//);
    }
  });

  it('a read token cannot mark read or favorite: a clear tool error, nothing changed', async () => {
    const id = articles[1]!.id;
    expect(await callError(readOnly, 'mark_read', { id })).toMatch(/^token_read_only: .*write token/);
    expect(await callError(readOnly, 'set_favorite', { id })).toMatch(/^token_read_only: /);
    const detail = await call<Ref>(readOnly, 'get_article', { id });
    expect(detail.is_read).toBe(false);
    expect(detail.is_favorited).toBe(false);
  });

  it('a write token marks read and unread and sets favorites, seen by the web app’s API', async () => {
    const id = articles[1]!.id;
    const marked = await call<Ref>(writer, 'mark_read', { id });
    expect(marked).toMatchObject({ id, is_read: true, url: articles[1]!.url });
    const listed = await t.app.inject({
      method: 'GET',
      url: `/articles?topic_id=${topic.id}`,
      headers: reader.headers,
    });
    expect(listed.json<{ items: Ref[] }>().items.find((i) => i.id === id)!.is_read).toBe(true);
    expect((await call<Ref>(writer, 'mark_read', { id, read: false })).is_read).toBe(false);

    expect((await call<Ref>(writer, 'set_favorite', { id })).is_favorited).toBe(true);
    const favs = await t.app.inject({ method: 'GET', url: '/user/favorites', headers: reader.headers });
    expect(favs.json<{ article_ids: string[] }>().article_ids).toEqual([id]);
    expect((await call<Ref>(writer, 'set_favorite', { id, favorite: false })).is_favorited).toBe(false);
  });

  it('validates every input against its schema before a tool runs', async () => {
    for (const [name, args] of [
      ['search_articles', { limit: 500 }],
      ['search_articles', { query: 'x'.repeat(201) }],
      ['search_articles', { query: 'nul\u0000byte' }],
      ['search_articles', { since: 'last tuesday' }],
      ['get_article', { id: 'not-an-id' }],
      ['get_article', {}],
      ['get_weekly_report', { topic: topic.slug, week: '09/01/2025' }],
      ['mark_read', { id: articles[0]!.id, read: 'yes' }],
    ] as const) {
      const text = await callError(writer, name, args).catch((e: Error) => e.message);
      expect(text, `${name} ${JSON.stringify(args)}`).toMatch(
        /MCP error -32602: Input validation error: |^validation_error: since must be/,
      );
    }
  });

  it('traces each tool call as its own span, a refused one with ERROR status', async () => {
    await t.container.telemetry.flush();
    const spans = receiver.spans.filter((s) => s.name.startsWith('tools/call '));
    const names = new Set(spans.map((s) => s.name));
    for (const tool of [
      'search_articles',
      'get_article',
      'list_topics',
      'get_weekly_report',
      'similar_articles',
      'mark_read',
      'set_favorite',
    ])
      expect(names, tool).toContain(`tools/call ${tool}`);
    const search = spans.find((s) => s.name === 'tools/call search_articles')!;
    expect(search.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'search_articles',
      'enduser.id': reader.id,
    });
    expect(search.parentSpanId).toBe('');
    const refused = spans.filter(
      (s) => s.name === 'tools/call mark_read' && s.attributes['auth.token.scope'] === 'read',
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((s) => s.statusCode === 2)).toBe(true);
    expect(
      spans
        .filter((s) => s.name === 'tools/call mark_read' && s.attributes['auth.token.scope'] === 'write')
        .every((s) => s.statusCode !== 2),
    ).toBe(true);
  });
});
