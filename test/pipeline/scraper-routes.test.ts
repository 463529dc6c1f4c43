import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { HttpPeer } from '../peers/http-peer.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { TelegramPeer } from '../peers/telegram-peer.js';
import { arxivFeed, jsonFeed, makeItem, modelReply, seedPipeline } from '../helpers/pipeline-factories.js';

async function waitForRun(t: TestApp, headers: Record<string, string>, id: string) {
  for (let i = 0; i < 600; i++) {
    const r = await t.app.inject({ method: 'GET', url: `/admin/scraper/runs/${id}`, headers });
    const body = r.json<{ status: string; counts: Record<string, number>; finished_at: string | null }>();
    if (body.status !== 'running') return body;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('run did not finish');
}

describe.each(dbKinds())('scraper runs over HTTP (%s)', (db) => {
  let t: TestApp;
  let llm: OpenAiPeer;
  let telegram: TelegramPeer;
  let feeds: HttpPeer;
  let admin: { headers: Record<string, string> };
  let gate: Promise<void> = Promise.resolve();
  const news = [
    makeItem(),
    makeItem({ content: '<p>Cette étude montre que les modèles sont plus rapides.</p>' }),
  ];

  beforeAll(async () => {
    llm = await new OpenAiPeer((call) => modelReply(call)).start();
    telegram = await new TelegramPeer().start();
    feeds = await new HttpPeer(async (req, res) => {
      await gate;
      if (req.path === '/arxiv') {
        if (req.headers['if-none-match'] === '"a1"') return void res.writeHead(304).end();
        return void res.writeHead(200, { 'content-type': 'application/atom+xml', etag: '"a1"' }).end(
          arxivFeed([
            {
              id: '2411.00001',
              title: 'Scaling laws for sparse graph transformers',
              summary: 'We study scaling. It holds.',
              doi: '10.1000/sg.1',
            },
            {
              id: '2411.00002',
              title: 'A second paper on protein language models',
              summary: 'Proteins are sequences.',
            },
          ]),
        );
      }
      res.writeHead(200, { 'content-type': 'application/feed+json' }).end(jsonFeed(news));
    }).start();
    t = await buildTestApp({
      db,
      env: { TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_API_URL: telegram.url, TELEGRAM_OPS_CHAT_ID: '-100777' },
    });
    admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, {
      sources: [
        { name: 'arXiv cs.LG', url: `${feeds.url}/arxiv`, kind: 'arxiv' },
        { name: 'JSON news', url: `${feeds.url}/news.json` },
      ],
      providerBaseUrl: llm.baseUrl,
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([llm.stop(), telegram.stop(), feeds.stop()]);
  });

  it('is admin-only', async () => {
    const user = await t.login('user');
    expect((await t.app.inject({ method: 'POST', url: '/admin/scraper/runs' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: user.headers })).statusCode,
    ).toBe(403);
    const id = '00000000-0000-4000-8000-000000000000';
    expect(
      (await t.app.inject({ method: 'GET', url: `/admin/scraper/runs/${id}`, headers: user.headers }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: `/admin/scraper/runs/${id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/admin/scraper/runs/nope', headers: admin.headers }))
        .statusCode,
    ).toBe(422);
  });

  it('answers 202 at once, refuses a second run meanwhile, and stores analyzed, translated articles', async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const res = await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin.headers });
    expect(res.statusCode).toBe(202);
    const { run_id } = res.json<{ run_id: string }>();
    const running = await t.app.inject({
      method: 'GET',
      url: `/admin/scraper/runs/${run_id}`,
      headers: admin.headers,
    });
    expect(running.json()).toMatchObject({ id: run_id, status: 'running', finished_at: null });
    const second = await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin.headers });
    expect(second.statusCode).toBe(409);
    open();
    const run = await waitForRun(t, admin.headers, run_id);
    expect(run).toMatchObject({
      status: 'completed',
      counts: { sources: 2, published: 4, translated: 4, completed: 4 },
    });
    expect(run.finished_at).not.toBeNull();

    const rows = rowsOf<{
      title: string;
      doi: string | null;
      arxiv_id: string | null;
      metadata: Record<string, unknown>;
      translations: Record<string, { title: string }>;
      summary: string;
      language: string;
      processing_status: string;
      run_id: string;
    }>(await t.container.database.db.execute(sql`select * from articles order by title`));
    expect(rows).toHaveLength(4);
    const paper = rows.find((r) => r.arxiv_id === '2411.00001')!;
    expect(paper).toMatchObject({ doi: '10.1000/sg.1', processing_status: 'completed', run_id });
    expect(paper.metadata).toMatchObject({ doi: '10.1000/sg.1', arxiv_id: '2411.00001' });
    expect(paper.translations['zh-TW']!.title).toBe('譯：Scaling laws for sparse graph transformers');
    expect(rows.every((r) => r.summary === 'A model summary of the article.')).toBe(true);

    // the ops chat heard about it
    expect(telegram.messages.at(-1)).toMatchObject({ chat_id: '-100777' });
    expect(telegram.messages.at(-1)!.text).toContain('published: 4');
  });

  it('a second run reads the arXiv source conditionally and skips what it already has, with reasons', async () => {
    const { run_id } = (
      await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin.headers })
    ).json<{
      run_id: string;
    }>();
    const run = await waitForRun(t, admin.headers, run_id);
    expect(run).toMatchObject({
      status: 'completed',
      counts: { sources: 2, sources_not_modified: 1, duplicates: 2, duplicates_url: 2 },
    });
    expect(run.counts.published ?? 0).toBe(0);
    const skips = rowsOf<{ reason: string; url: string }>(
      await t.container.database.db.execute(
        sql`select reason, url from scraper_skips where run_id = ${run_id}`,
      ),
    );
    expect(skips.map((s) => s.reason)).toEqual(['url', 'url']);
  });
});
