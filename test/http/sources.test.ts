import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { startAndWait, waitForRun } from '../helpers/runs.js';
import { HttpPeer } from '../peers/http-peer.js';
import { DrizzleSourceFetchRepository } from '../../src/infrastructure/db/repositories/source-fetch.repository.js';
import { SOURCE_FETCHES_KEPT } from '../../src/domain/catalog.js';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { FIRST_FETCH_QUEUE } from '../../src/application/catalog/first-fetch-jobs.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/feeds/${path}`, import.meta.url));
const RSS = fixture('node-feedparser/rss2sample.xml');
const ATOM = fixture('rss-parser/heise.atom');
/** real pages: one links to one feed (relative), one to thirteen, one to none */
const ONE_FEED_PAGE = fixture('discovery/coldsweat-html5-xhtml.html');
const MANY_FEEDS_PAGE = fixture('discovery/mozilla-feed-discovery.html');
const NO_FEED_PAGE = fixture('node-feedparser/notafeed.html');

interface SourceBody {
  id: string;
  name: string;
  url: string;
  fetch_interval_minutes: number;
  last_fetched_at: string | null;
  next_fetch_at: string | null;
  last_fetch: FetchBody | null;
}
interface FetchBody {
  http_status: number | null;
  items_seen: number;
  items_new: number | null;
  items_duplicate: number | null;
  error_code: string | null;
  error: string | null;
  run_id: string | null;
  duration_ms: number;
}

describe.each(dbKinds())('admin sources: check, preview, discovery, history (%s)', (db) => {
  let t: TestApp;
  let peer: HttpPeer;
  let admin: Record<string, string>;
  let topicId: string;

  /** while set, a read of a feed with `?held` waits for it: a run stays under way until released */
  let held: Promise<void> | null = null;

  beforeAll(async () => {
    peer = await new HttpPeer(async (req, res) => {
      const send = (type: string, body: Buffer | string, status = 200) =>
        void res.writeHead(status, { 'content-type': type }).end(body);
      if (req.query.has('held')) await held;
      switch (req.path) {
        case '/feed.xml':
        case '/second.xml':
          return send('application/rss+xml', RSS);
        case '/feed':
          return send('application/atom+xml', ATOM);
        case '/site/':
          return send('text/html; charset=utf-8', ONE_FEED_PAGE);
        case '/many/':
          return send('text/html', MANY_FEEDS_PAGE);
        case '/nothing/':
          return send('text/html', NO_FEED_PAGE);
        case '/plain':
          return send('text/plain', 'hello world');
        case '/broken.xml':
          return send('application/rss+xml', RSS.subarray(0, Math.floor(RSS.length / 2)));
        default:
          return send('text/html', '<h1>Not Found</h1>', 404);
      }
    }).start();
    t = await buildTestApp({ db });
    admin = (await t.login('admin')).headers;
    const topic = await t.app.inject({
      method: 'POST',
      url: '/admin/topics',
      headers: admin,
      payload: { name: `Space ${db}` },
    });
    topicId = topic.json<{ id: string }>().id;
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  /** first fetch jobs of the source waiting or running in the queue (pg-boss's own table) */
  const queuedFirstFetches = async (sourceId: string) =>
    rowsOf<{ n: number }>(
      await t.container.database.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = ${FIRST_FETCH_QUEUE}
            and data->>'sourceId' = ${sourceId} and state in ('created', 'retry', 'active')`,
      ),
    )[0]!.n;
  const preview = (url: string) =>
    t.app.inject({ method: 'POST', url: '/admin/sources/preview', headers: admin, payload: { url } });
  const create = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/admin/sources',
      headers: admin,
      payload: { topic_id: topicId, kind: 'rss', ...payload },
    });

  it('is admin-only', async () => {
    const user = (await t.login('user')).headers;
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['POST', '/admin/sources/preview'],
      ['GET', `/admin/sources/${id}/fetches`],
      ['POST', `/admin/sources/${id}/fetch`],
    ] as const) {
      const payload = method === 'POST' ? { url: peer.url } : undefined;
      expect((await t.app.inject({ method, url, payload })).statusCode).toBe(401);
      expect((await t.app.inject({ method, url, headers: user, payload })).statusCode).toBe(403);
    }
  });

  it('previews a feed: its title, format, item count and newest item', async () => {
    const res = await preview(`${peer.url}/feed.xml`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      requested_url: `${peer.url}/feed.xml`,
      url: `${peer.url}/feed.xml`,
      status: 'feed',
      final_url: `${peer.url}/feed.xml`,
      http_status: 200,
      feed: {
        format: 'rss',
        title: 'Liftoff News',
        item_count: 4,
        newest: {
          title: 'Star City',
          url: 'http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp',
          published_at: '2003-06-03T09:39:21.000Z',
        },
      },
      page_title: null,
      discovered: [],
      problem: null,
    });
  });

  it("turns a site's address into its feed: the one feed the page links to is read at once", async () => {
    const res = await preview(`${peer.url}/site/`);
    expect(res.json()).toMatchObject({
      requested_url: `${peer.url}/site/`,
      url: `${peer.url}/feed`,
      status: 'feed',
      page_title: 'HTML5 w/ XHTML serialization document',
      discovered: [{ url: `${peer.url}/feed`, title: 'Our page feed', type: 'atom' }],
      feed: { format: 'atom', title: 'heise developer neueste Meldungen', item_count: 15 },
    });
  });

  it('lists every feed of a page that links to several, for the admin to pick', async () => {
    const res = await preview(`${peer.url}/many/`);
    const body = res.json<{ status: string; feed: unknown; discovered: { url: string; title: string }[] }>();
    expect(body.status).toBe('page');
    expect(body.feed).toBeNull();
    expect(body.discovered.map((d) => d.title)).toEqual(Array.from({ length: 13 }, (_, i) => String(i + 1)));
    expect(body.discovered[0]!.url).toBe(`${peer.url}/1.atom`);
  });

  it('says why a URL is not a feed: HTTP status, another kind of document, malformed at a line, no feed linked', async () => {
    const gone = (await preview(`${peer.url}/gone`)).json();
    expect(gone).toMatchObject({
      status: 'problem',
      http_status: 404,
      feed: null,
      problem: { code: 'http_status', http_status: 404 },
    });
    expect(gone.problem.message).toContain('HTTP 404');
    expect((await preview(`${peer.url}/plain`)).json()).toMatchObject({
      status: 'problem',
      http_status: 200,
      problem: { code: 'not_a_feed' },
    });
    const broken = (await preview(`${peer.url}/broken.xml`)).json();
    expect(broken.problem).toMatchObject({ code: 'malformed', line: expect.any(Number) });
    expect(broken.problem.message).toMatch(/^malformed XML at line \d+/);
    expect((await preview(`${peer.url}/nothing/`)).json()).toMatchObject({
      status: 'problem',
      page_title: "The Is Not The Feed You're Looking For",
      discovered: [],
      problem: { code: 'no_feed_found' },
    });
    // nothing listens on port 9 of loopback
    expect((await preview('http://127.0.0.1:9/feed')).json()).toMatchObject({
      status: 'problem',
      http_status: null,
      problem: { code: 'network' },
    });
    expect((await preview('ftp://example.org/feed')).statusCode).toBe(422);
  });

  it('refuses to save a 404 or a page with 422 and the reason, saves it when forced', async () => {
    const refused = await create({ name: 'Gone', url: `${peer.url}/gone` });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({
      code: 'source_not_a_feed',
      details: [{ path: '/url', message: `HTTP 404 from ${new URL(peer.url).host}` }],
    });
    const page = await create({ name: 'Page', url: `${peer.url}/many/` });
    expect(page.statusCode).toBe(422);
    expect(page.json().error.details[0].message).toContain('links to 13 feed(s)');
    const forced = await create({ name: 'Intranet, down today', url: `${peer.url}/gone`, force: true });
    expect(forced.statusCode, forced.body).toBe(201);
    expect(forced.json()).toMatchObject({ name: 'Intranet, down today', last_fetch: null });
    // the topic is checked before the URL is read
    const noTopic = await create({
      topic_id: '00000000-0000-4000-8000-000000000000',
      url: `${peer.url}/feed.xml`,
    });
    expect(noTopic.statusCode).toBe(404);
  });

  it('names a new source after its feed when no name is given, with the default interval', async () => {
    const res = await create({ url: `${peer.url}/feed.xml` });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Liftoff News',
      fetch_interval_minutes: 60,
      next_fetch_at: null,
      last_fetch: null,
    });
    // the same URL in the topic again: 409 before anything is read
    const before = peer.requests.length;
    const again = await create({ url: `${peer.url}/feed.xml` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('source_exists');
    expect(peer.requests.length).toBe(before);
  });

  it('edits name, interval and URL; a new URL is checked unless forced; the interval is bounded', async () => {
    const src = (await create({ name: 'Edit me', url: `${peer.url}/second.xml` })).json<SourceBody>();
    const patch = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/admin/sources/${src.id}`, headers: admin, payload });
    const edited = await patch({ name: 'Edited', fetch_interval_minutes: 15 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Edited', fetch_interval_minutes: 15 });
    for (const bad of [4, 10_081, 1.5])
      expect((await patch({ fetch_interval_minutes: bad })).statusCode).toBe(422);
    const toGone = await patch({ url: `${peer.url}/gone?edit` });
    expect(toGone.statusCode).toBe(422);
    expect(toGone.json().error.code).toBe('source_not_a_feed');
    expect((await patch({ url: `${peer.url}/gone?edit`, force: true })).json()).toMatchObject({
      url: `${peer.url}/gone?edit`,
    });
    expect((await patch({ url: `${peer.url}/feed` })).json()).toMatchObject({ url: `${peer.url}/feed` });
    // the same URL again is not read
    const before = peer.requests.length;
    expect((await patch({ url: `${peer.url}/feed`, name: 'Same URL' })).statusCode).toBe(200);
    expect(peer.requests.length).toBe(before);
  });

  it('fetches one source now (202 {run_id}) and keeps its fetch results: status, items seen/new/duplicate', async () => {
    const src = (await create({ name: 'Liftoff', url: `${peer.url}/feed.xml?now` })).json<SourceBody>();
    const first = await startAndWait(t.app, admin, `/admin/sources/${src.id}/fetch`);
    expect(first).toMatchObject({ kind: 'scrape', trigger: 'admin', status: 'completed' });
    expect(first.summary).toMatchObject({ sources: 1, discovered: 4, published: 3 });
    const second = await startAndWait(t.app, admin, `/admin/sources/${src.id}/fetch`);
    const history = await t.app.inject({ url: `/admin/sources/${src.id}/fetches`, headers: admin });
    expect(history.statusCode).toBe(200);
    const rows = history.json<FetchBody[]>();
    // newest first; the item without a title is seen but neither new nor a duplicate
    expect(rows).toMatchObject([
      { run_id: second.id, http_status: 200, items_seen: 4, items_new: 0, items_duplicate: 3, error: null },
      { run_id: first.id, http_status: 200, items_seen: 4, items_new: 3, items_duplicate: 0, error: null },
    ]);
    const listed = (await t.app.inject({ url: `/admin/sources?topic_id=${topicId}`, headers: admin })).json<
      SourceBody[]
    >();
    const row = listed.find((s) => s.id === src.id)!;
    expect(row.last_fetch).toMatchObject({ run_id: second.id, items_duplicate: 3 });
    expect(new Date(row.next_fetch_at!).getTime() - new Date(row.last_fetched_at!).getTime()).toBe(
      60 * 60_000,
    );
  });

  it('records a failed fetch with its HTTP status and reason', async () => {
    const src = (await create({ name: 'Down', url: `${peer.url}/down.xml`, force: true })).json<SourceBody>();
    const run = await startAndWait(t.app, admin, `/admin/sources/${src.id}/fetch`);
    expect(run.status).toBe('completed_with_errors');
    const [last] = (await t.app.inject({ url: `/admin/sources/${src.id}/fetches`, headers: admin })).json<
      FetchBody[]
    >();
    expect(last).toMatchObject({
      http_status: 404,
      error_code: 'http_status',
      items_seen: 0,
      error: `HTTP 404 from ${new URL(peer.url).host}`,
    });
  });

  it('answers 404 for an unknown source and 409 while a run is under way', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await t.app.inject({ url: `/admin/sources/${id}/fetches`, headers: admin })).statusCode).toBe(
      404,
    );
    expect(
      (await t.app.inject({ method: 'POST', url: `/admin/sources/${id}/fetch`, headers: admin })).statusCode,
    ).toBe(404);
    const src = (await create({ name: 'Busy', url: `${peer.url}/feed.xml?held` })).json<SourceBody>();
    // the first run waits for the feed until the second request has been answered: however busy
    // the machine, the first run is still under way when the second one asks
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    try {
      const a = await t.app.inject({ method: 'POST', url: `/admin/sources/${src.id}/fetch`, headers: admin });
      const b = await t.app.inject({ method: 'POST', url: `/admin/sources/${src.id}/fetch`, headers: admin });
      expect(a.statusCode).toBe(202);
      expect(b.statusCode).toBe(409);
      expect(b.json()).toMatchObject({ error: { code: 'run_in_progress' } });
    } finally {
      release();
      held = null;
    }
    const runs = (
      await t.app.inject({ url: '/admin/runs?kind=scrape&status=running', headers: admin })
    ).json<{
      items: { id: string }[];
    }>();
    for (const r of runs.items) await waitForRun(t.app, admin, r.id);
  });

  it('reads a new source at once when asked (the add form), and after the run under way when one is', async () => {
    const fresh = await create({ name: 'Read at once', url: `${peer.url}/feed.xml?first`, fetch_now: true });
    expect(fresh.statusCode).toBe(201);
    const runId = fresh.json<{ first_fetch_run_id: string | null }>().first_fetch_run_id;
    expect(runId).toEqual(expect.any(String));
    const run = await waitForRun(t.app, admin, runId!);
    expect(run.status).toBe('completed');
    // the Jobs page says what started it: the source being added, not an admin's "Fetch now"
    expect(run.trigger).toBe('source_added');
    const row = (await t.app.inject({ url: '/admin/sources', headers: admin }))
      .json<SourceBody[]>()
      .find((x) => x.id === fresh.json<SourceBody>().id)!;
    expect(row.last_fetch).toMatchObject({ run_id: runId, http_status: 200 });
    // without fetch_now nothing is read until a run is started
    const later = (await create({ name: 'Read later', url: `${peer.url}/feed.xml?later` })).json<
      SourceBody & { first_fetch_run_id: string | null }
    >();
    expect(later.first_fetch_run_id).toBeNull();

    // another run under way: the new source's first read is a queued job, which the worker (as
    // `npm start` runs it) starts as soon as that run has ended
    for (const w of t.container.workers.filter((w) => w.name === 'source-first-fetch')) await w.ready!();
    const busy = (
      await create({ name: 'Busy first', url: `${peer.url}/feed.xml?held&busyfirst` })
    ).json<SourceBody>();
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    try {
      const started = await t.app.inject({
        method: 'POST',
        url: `/admin/sources/${busy.id}/fetch`,
        headers: admin,
      });
      expect(started.statusCode).toBe(202);
      const queued = await create({
        name: 'Queued first',
        url: `${peer.url}/feed.xml?queued`,
        fetch_now: true,
      });
      expect(queued.json<{ first_fetch_run_id: string | null }>().first_fetch_run_id).toBeNull();
      // queued, not an in-process retry: the job waits in the database
      expect(await queuedFirstFetches(queued.json<SourceBody>().id)).toBe(1);
      const reads = () => peer.requests.filter((r) => r.query.has('queued')).length;
      const probed = reads();
      // nothing is read while the run is under way
      await new Promise((r) => setTimeout(r, 1500));
      expect(reads()).toBe(probed);
      release();
      await expect.poll(reads, { timeout: 60_000, interval: 200 }).toBeGreaterThan(probed);
      await expect
        .poll(
          async () =>
            (await t.app.inject({ url: '/admin/sources', headers: admin }))
              .json<SourceBody[]>()
              .find((x) => x.id === queued.json<SourceBody>().id)?.last_fetch?.http_status,
          { timeout: 60_000, interval: 200 },
        )
        .toBe(200);
      await expect.poll(() => queuedFirstFetches(queued.json<SourceBody>().id)).toBe(0);
      const queuedRun = (await t.app.inject({ url: '/admin/sources', headers: admin }))
        .json<SourceBody[]>()
        .find((x) => x.id === queued.json<SourceBody>().id)!.last_fetch!.run_id!;
      expect((await waitForRun(t.app, admin, queuedRun)).trigger).toBe('source_added');
    } finally {
      release();
      held = null;
    }
  });

  it('two starts at the same moment, in two processes on one database, make one run and one 409', async () => {
    const src = (await create({ name: 'Twice', url: `${peer.url}/feed.xml?held&twice` })).json<SourceBody>();
    // a second service on the same database: its own memory knows nothing of the first one's run
    const other = await buildTestApp({ database: t.container.database });
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    try {
      const otherAdmin = (await other.login('admin')).headers;
      const answers = await Promise.all([
        t.app.inject({ method: 'POST', url: `/admin/sources/${src.id}/fetch`, headers: admin }),
        other.app.inject({ method: 'POST', url: `/admin/sources/${src.id}/fetch`, headers: otherAdmin }),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([202, 409]);
      release();
      // either service reads the runs of both: they share the database
      for (const r of answers.filter((a) => a.statusCode === 202))
        await waitForRun(t.app, admin, r.json<{ run_id: string }>().run_id);
    } finally {
      release();
      held = null;
      await other.close();
    }
  });

  it('the schedule reads only the sources that are due; an admin run reads every enabled one', async () => {
    const topic = await t.app.inject({
      method: 'POST',
      url: '/admin/topics',
      headers: admin,
      payload: { name: `Schedule ${db}` },
    });
    const own = topic.json<{ id: string }>().id;
    const fresh = (
      await create({ topic_id: own, name: 'Read just now', url: `${peer.url}/feed.xml?fresh` })
    ).json<SourceBody>();
    const never = (
      await create({ topic_id: own, name: 'Never read', url: `${peer.url}/feed.xml?never` })
    ).json<SourceBody>();
    await startAndWait(t.app, admin, `/admin/sources/${fresh.id}/fetch`);
    // every other source of the file is disabled, so the runs below read these two only
    const others = (await t.app.inject({ url: '/admin/sources', headers: admin }))
      .json<SourceBody[]>()
      .filter((s) => s.id !== fresh.id && s.id !== never.id);
    for (const s of others)
      await t.app.inject({
        method: 'PATCH',
        url: `/admin/sources/${s.id}`,
        headers: admin,
        payload: { enabled: false },
      });
    const cron = t.container.jobs.find((j) => j.name === 'scraper')!;
    const seen = peer.requests.length;
    await cron.run();
    const cronPaths = peer.requests.slice(seen).map((r) => r.query.toString());
    expect(cronPaths).toEqual(['never=']);
    // an admin run reads both
    const before = peer.requests.length;
    await startAndWait(t.app, admin, '/admin/scraper/runs');
    expect(
      peer.requests
        .slice(before)
        .map((r) => r.query.toString())
        .sort(),
    ).toEqual(['fresh=', 'never=']);
  });

  it(`keeps the newest ${SOURCE_FETCHES_KEPT} fetch results per source`, async () => {
    const src = (await create({ name: 'Pruned', url: `${peer.url}/feed.xml?pruned` })).json<SourceBody>();
    const repo = new DrizzleSourceFetchRepository(t.container.database.db);
    const row = (i: number) => ({
      sourceId: src.id,
      runId: null,
      startedAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      durationMs: i,
      httpStatus: 200,
      itemsSeen: 1,
      itemsNew: 0,
      itemsDuplicate: 1,
      errorCode: null,
      // outside text: the control character is removed before it is stored
      error: i === SOURCE_FETCHES_KEPT + 4 ? 'bad\u0000byte' : null,
    });
    await repo.add(Array.from({ length: SOURCE_FETCHES_KEPT }, (_, i) => row(i)));
    await repo.add(Array.from({ length: 5 }, (_, i) => row(SOURCE_FETCHES_KEPT + i)));
    const kept = await repo.list(src.id, 1000);
    expect(kept).toHaveLength(SOURCE_FETCHES_KEPT);
    expect(kept[0]!.durationMs).toBe(SOURCE_FETCHES_KEPT + 4);
    expect(kept[0]!.error).toBe('badbyte');
    expect(kept.at(-1)!.durationMs).toBe(5);
    const api = await t.app.inject({ url: `/admin/sources/${src.id}/fetches`, headers: admin });
    expect(api.json()).toHaveLength(20);
  });
});
