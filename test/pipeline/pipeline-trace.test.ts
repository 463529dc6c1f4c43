import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { OtlpReceiver, type ReceivedSpan } from '../peers/otlp-receiver.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import type { HttpPeer } from '../peers/http-peer.js';
import {
  atomFeed,
  makeItem,
  modelReply,
  rssFeed,
  seedPipeline,
  startFeedServer,
} from '../helpers/pipeline-factories.js';

const HANDLERS = [
  'article.scraped.handle',
  'article.processed.handle',
  'article.tag_normalization.handle',
  'article.analysis_completed.handle',
  'article.translate.handle',
];

async function waitForRun(t: TestApp, headers: Record<string, string>, id: string) {
  for (let i = 0; i < 400; i++) {
    const r = await t.app.inject({ method: 'GET', url: `/admin/scraper/runs/${id}`, headers });
    const body = r.json<{ status: string; counts: Record<string, number> }>();
    if (body.status !== 'running') return body;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('run did not finish');
}

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((s) => s.parentSpanId === parent.spanId).sort((a, b) => Number(a.startNs - b.startNs));

describe('a traced scraper run', () => {
  let receiver: OtlpReceiver;
  let llm: OpenAiPeer;
  let feeds: HttpPeer;
  let t: TestApp | undefined;
  const shared = makeItem();
  const a = [makeItem(), makeItem(), shared];
  // the same article with tracking parameters, and one with the same title under another URL
  const b = [
    makeItem({ ...shared, url: `${shared.url}?utm_source=rss&utm_medium=feed` }),
    makeItem({ title: a[0]!.title, url: 'https://mirror.example.net/copy-of-first' }),
    makeItem({ title: 'Broken model answer for this one article, please' }),
  ];

  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    llm = await new OpenAiPeer((call) => {
      if (call.messages[1]?.content.includes('Broken model answer'))
        return { status: 400, body: { error: { message: 'model refused the article' } } };
      return modelReply(call);
    }).start();
    feeds = await startFeedServer({ '/a.xml': rssFeed(a), '/b.atom': atomFeed(b) });
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    await Promise.all([receiver.stop(), llm.stop(), feeds.stop()]);
  });

  it('exports one trace: scraper.run, the four stage spans, one article.pipeline per new article with sibling handler spans', async () => {
    t = await buildTestApp({
      env: {
        MONITOR_OTLP_USER: 'ingest-user',
        MONITOR_API_KEY: 'secret-key',
        MONITOR_OTLP_ENDPOINT: receiver.url,
      },
    });
    const admin = await t.login('admin');
    const { topicId } = await seedPipeline(t.app, admin.headers, {
      sources: [
        { name: 'Feed A', url: `${feeds.url}/a.xml` },
        { name: 'Feed B', url: `${feeds.url}/b.atom` },
      ],
      providerBaseUrl: llm.baseUrl,
    });

    const started = await t.app.inject({
      method: 'POST',
      url: '/admin/scraper/runs',
      headers: admin.headers,
    });
    expect(started.statusCode, started.body).toBe(202);
    const runId = started.json<{ run_id: string }>().run_id;
    const run = await waitForRun(t, admin.headers, runId);
    expect(run.status).toBe('completed');
    expect(run.counts).toMatchObject({
      sources: 2,
      discovered: 6,
      fetched: 6,
      duplicates: 2,
      published: 4,
      analysis_failed: 1,
      translated: 3,
    });

    await t.close(); // flushes the pending spans
    t = undefined;

    const roots = receiver.spans.filter((s) => s.name === 'scraper.run');
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root.parentSpanId).toBe('');
    expect(root.attributes['run.id']).toBe(runId);
    expect(typeof root.attributes['run.correlation_id']).toBe('string');
    expect(root.resource).toMatchObject({
      'service.name': 'article-intel',
      'deployment.environment': 'local',
    });
    expect(receiver.auth[0]).toBe(`Basic ${Buffer.from('ingest-user:secret-key').toString('base64')}`);

    const trace = receiver.spans.filter((s) => s.traceId === root.traceId);
    expect(new Set(receiver.spans.map((s) => s.traceId)).size).toBe(1);
    const top = childrenOf(trace, root);
    const byName = (name: string) => top.filter((s) => s.name === name);
    expect(byName('pipeline.discover')[0]!.attributes).toMatchObject({
      'sources.count': 2,
      'articles.discovered': 6,
    });
    expect(byName('pipeline.fetch')[0]!.attributes).toMatchObject({
      'articles.to_fetch': 6,
      'articles.fetched': 6,
    });
    expect(byName('pipeline.dedup')[0]!.attributes).toMatchObject({
      'articles.before_dedup': 6,
      'articles.after_dedup': 4,
      'articles.skipped': 2,
    });
    expect(byName('pipeline.publish_articles')[0]!.attributes).toMatchObject({ 'articles.published': 4 });
    expect(top.slice(0, 4).map((s) => s.name)).toEqual([
      'pipeline.discover',
      'pipeline.fetch',
      'pipeline.dedup',
      'pipeline.publish_articles',
    ]);
    expect(byName('scraper.pipeline_completed.handle')).toHaveLength(1);
    expect(byName('scraper.pipeline_completed.notify')).toHaveLength(1);

    const articles = byName('article.pipeline');
    expect(articles).toHaveLength(4);
    expect(new Set(articles.map((s) => s.attributes['article.source']))).toEqual(
      new Set(['Feed A', 'Feed B']),
    );
    for (const ap of articles) {
      expect(ap.attributes['article.topic_id']).toBe(topicId);
      expect(String(ap.attributes['article.url'])).toMatch(/^https:\/\//);
      const kids = childrenOf(trace, ap);
      // every handler span is a direct child: none nests in another
      for (const k of kids) expect(childrenOf(trace, k)).toHaveLength(0);
      for (let i = 1; i < kids.length; i++)
        expect(
          kids[i]!.startNs >= kids[i - 1]!.endNs,
          `${kids[i]!.name} ${kids[i]!.startNs} < ${kids[i - 1]!.name} ${kids[i - 1]!.endNs}`,
        ).toBe(true);
      if (
        String(ap.attributes['article.url']).includes('mirror') ||
        kids.some((k) => k.name.includes('failed'))
      )
        continue;
      expect(kids.map((k) => k.name)).toEqual(HANDLERS);
      expect(kids.every((k) => k.statusCode !== 2)).toBe(true);
    }

    // the failing article: an ERROR span carrying the model's message, then the analysis_failed span
    const failed = articles.find((ap) =>
      childrenOf(trace, ap).some((k) => k.name === 'article.analysis_failed.handle'),
    )!;
    expect(failed).toBeDefined();
    const kids = childrenOf(trace, failed);
    expect(kids.map((k) => k.name)).toEqual([
      'article.scraped.handle',
      'article.processed.handle',
      'article.analysis_failed.handle',
    ]);
    expect(kids[1]!.statusCode).toBe(2);
    expect(kids[1]!.statusMessage).toContain('model refused the article');
    expect(kids[1]!.events).toContain('exception');
    expect(kids[2]!.statusCode).toBe(2);
    expect(kids[2]!.statusMessage).toContain('model refused the article');
    expect(
      articles.filter((ap) => childrenOf(trace, ap).some((k) => k.name === 'article.translate.handle')),
    ).toHaveLength(3);
  });
});
