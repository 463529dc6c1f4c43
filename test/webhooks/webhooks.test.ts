import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { jsonFeed, makeItem, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import { insertArticle, insertTopic } from '../helpers/report-factories.js';
import { weeklyJob } from '../helpers/runs.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { DrizzleWebhookRepository } from '../../src/infrastructure/db/repositories/webhook.repository.js';
import { WebhookReceiver, type Received } from './receiver.js';

interface Delivery {
  id: string;
  event: string;
  event_id: string;
  status: string;
  attempts: { attempt: number; status_code: number | null; latency_ms: number; error: string | null }[];
  response_excerpt: string | null;
}

const until = async <T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('signed webhooks', () => {
  let t: TestApp;
  let admin: { headers: Record<string, string> };
  let receiver: WebhookReceiver;
  let feeds: HttpPeer;
  const items = [makeItem(), makeItem()];
  const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-'));

  beforeAll(async () => {
    // /flaky answers 500 twice per event, /gone 410 always, the rest 200
    receiver = await new WebhookReceiver((path, attempt) =>
      path === '/flaky' ? (attempt <= 2 ? 500 : 200) : path === '/gone' ? 410 : 200,
    ).start();
    feeds = await startFeedServer({ '/news.json': jsonFeed(items) });
    t = await buildTestApp({
      env: {
        FETCH_ALLOWED_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_DELAY_SECONDS: '1',
        WEBHOOK_ATTEMPTS: '5',
        DATA_DIR: dataDir,
        PUBLIC_BASE_URL: 'https://news.example.test',
      },
    });
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([receiver.stop(), feeds.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers = admin.headers,
  ) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const create = async (path: string, events: string[], extra: object = {}) => {
    const res = await api('POST', '/admin/webhooks', { url: `${receiver.url}${path}`, events, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ id: string; secret: string }>();
    receiver.secrets.set(path, body.secret);
    return body;
  };
  const deliveries = async (id: string) =>
    (await api('GET', `/admin/webhooks/${id}/deliveries`)).json<{ items: Delivery[] }>().items;

  it('answers the secret once, lists endpoints without it, updates and deletes them', async () => {
    const made = await create('/crud', ['run.failed']);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const listed = (await api('GET', '/admin/webhooks')).json<Record<string, unknown>[]>();
    const row = listed.find((w) => w.id === made.id)!;
    expect(row).toMatchObject({ url: `${receiver.url}/crud`, events: ['run.failed'], enabled: true });
    expect(JSON.stringify(listed)).not.toContain(made.secret);

    const given = await api('POST', '/admin/webhooks', {
      url: `${receiver.url}/given`,
      events: ['report.completed'],
      secret: 'my-own-secret-of-enough-length',
    });
    expect(given.json()).toMatchObject({ secret: 'my-own-secret-of-enough-length' });

    const patched = await api('PATCH', `/admin/webhooks/${made.id}`, {
      enabled: false,
      secret: 'x'.repeat(20),
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ enabled: false });
    expect(patched.json()).not.toHaveProperty('secret');

    expect((await api('DELETE', `/admin/webhooks/${made.id}`)).statusCode).toBe(204);
    expect((await api('DELETE', `/admin/webhooks/${made.id}`)).json()).toMatchObject({
      error: { code: 'webhook_not_found' },
    });
    expect((await api('PATCH', `/admin/webhooks/${made.id}`, { enabled: true })).statusCode).toBe(404);
    expect((await api('GET', `/admin/webhooks/${made.id}/deliveries`)).statusCode).toBe(404);
    expect((await api('DELETE', `/admin/webhooks/${given.json<{ id: string }>().id}`)).statusCode).toBe(204);
  });

  it('refuses unknown events, short secrets and addresses the outbound rules refuse, when saved', async () => {
    const bad = [
      { url: `${receiver.url}/x`, events: ['article.deleted'] },
      { url: `${receiver.url}/x`, events: [] },
      { url: `${receiver.url}/x`, events: ['run.failed'], secret: 'short' },
      { url: 'ftp://example.org/x', events: ['run.failed'] },
    ];
    for (const payload of bad) expect((await api('POST', '/admin/webhooks', payload)).statusCode).toBe(422);
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.2:8080/hook',
      'http://10.0.0.5/hook',
      'http://[::ffff:169.254.169.254]/hook',
      'http://2130706434/hook',
      'http://localhost.invalid/hook',
    ]) {
      const res = await api('POST', '/admin/webhooks', { url, events: ['run.failed'] });
      expect(res.statusCode, url).toBe(422);
      expect(res.json(), url).toMatchObject({ error: { code: 'webhook_url_refused' } });
    }
    // an update to such an address is refused the same way
    const ok = await create('/moved', ['run.failed']);
    const moved = await api('PATCH', `/admin/webhooks/${ok.id}`, { url: 'http://169.254.169.254/' });
    expect(moved.json()).toMatchObject({ error: { code: 'webhook_url_refused' } });
    await api('DELETE', `/admin/webhooks/${ok.id}`);
  });

  it('lets only admins in: anonymous 401, reader 403 on every webhook route', async () => {
    const reader = await t.login('user');
    const id = '00000000-0000-4000-8000-000000000001';
    const routes: ['GET' | 'POST' | 'PATCH' | 'DELETE', string][] = [
      ['GET', '/admin/webhooks'],
      ['POST', '/admin/webhooks'],
      ['PATCH', `/admin/webhooks/${id}`],
      ['DELETE', `/admin/webhooks/${id}`],
      ['GET', `/admin/webhooks/${id}/deliveries`],
      ['POST', `/admin/webhooks/${id}/deliveries/${id}/resend`],
    ];
    for (const [method, url] of routes) {
      const payload = method === 'POST' || method === 'PATCH' ? {} : undefined;
      expect((await api(method, url, payload, {})).statusCode, `${method} ${url}`).toBe(401);
      expect((await api(method, url, payload, reader.headers)).statusCode, `${method} ${url}`).toBe(403);
      expect([200, 404, 422], `${method} ${url}`).toContain((await api(method, url, payload)).statusCode);
    }
  });

  it('delivers a scrape run’s completed articles as signed article.published, retrying 5xx and not 4xx', async () => {
    const good = await create('/good', ['article.published', 'run.failed']);
    const flaky = await create('/flaky', ['article.published']);
    const gone = await create('/gone', ['article.published']);
    // not subscribed, and disabled: nothing is enqueued for them
    const other = await create('/other', ['report.completed']);
    const off = await create('/off', ['article.published'], { enabled: false });

    const { topicId } = await seedPipeline(t.app, admin.headers, {
      sources: [{ name: 'News', url: `${feeds.url}/news.json` }],
    });
    const run = await api('POST', '/admin/scraper/runs');
    expect(run.statusCode).toBe(202);

    const goodOnes = await until(
      'two deliveries to /good',
      () => deliveries(good.id),
      (d) => d.length === 2 && d.every((x) => x.status === 'delivered'),
    );
    const toGood = receiver.received.filter((r) => r.path === '/good');
    expect(toGood).toHaveLength(2);
    for (const r of toGood) {
      expect(r.verified).toBe(true);
      expect(Math.abs(r.timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(r.json.id).toBe(r.id);
      expect(r.json.event).toBe('article.published');
      expect(Object.keys(r.json.data).sort()).toEqual(
        ['article_id', 'published_at', 'summary', 'tags', 'title', 'topic_id', 'url'].sort(),
      );
      expect(r.json.data.topic_id).toBe(topicId);
      expect(typeof r.json.data.summary).toBe('string');
      expect(Array.isArray(r.json.data.tags)).toBe(true);
    }
    expect(toGood.map((r) => r.json.data.url).sort()).toEqual(items.map((i) => i.url).sort());
    expect(toGood.map((r) => r.json.data.title).sort()).toEqual(items.map((i) => i.title).sort());
    expect(goodOnes[0]!.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, error: null }),
    ]);
    // the answer is kept to 4 KB, the rest is dropped
    expect(goodOnes[0]!.response_excerpt).toHaveLength(4096);

    // 500, 500, then 200: delivered on the third try, each attempt recorded
    const flakyOnes = await until(
      'flaky deliveries',
      () => deliveries(flaky.id),
      (d) => d.length === 2 && d.every((x) => x.status === 'delivered'),
    );
    for (const d of flakyOnes)
      expect(d.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 500],
        [3, 200],
      ]);
    expect(receiver.received.filter((r) => r.path === '/flaky').every((r) => r.verified)).toBe(true);

    // 410 is final: one attempt
    const goneOnes = await until(
      'gone deliveries',
      () => deliveries(gone.id),
      (d) => d.length === 2 && d.every((x) => x.status === 'failed'),
    );
    expect(goneOnes.map((d) => d.attempts.length)).toEqual([1, 1]);
    expect(goneOnes[0]!.attempts[0]).toMatchObject({ status_code: 410, error: 'HTTP 410' });

    expect(await deliveries(other.id)).toEqual([]);
    expect(await deliveries(off.id)).toEqual([]);
    expect(receiver.received.some((r) => r.path === '/other' || r.path === '/off')).toBe(false);

    // a resend sends the same body again, signed afresh
    const first = goneOnes[0]!;
    const resent = await api('POST', `/admin/webhooks/${gone.id}/deliveries/${first.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    expect(resent.json()).toMatchObject({ id: first.id, status: 'pending' });
    const again = await until(
      'the resend',
      () => deliveries(gone.id),
      (d) => d.some((x) => x.id === first.id && x.attempts.length === 2 && x.status === 'failed'),
    );
    expect(again.find((x) => x.id === first.id)!.attempts[1]).toMatchObject({ attempt: 2, status_code: 410 });
    const sends = receiver.received.filter((r) => r.id === first.event_id && r.path === '/gone');
    expect(sends).toHaveLength(2);
    expect(sends[0]!.body).toBe(sends[1]!.body);
    expect(sends.every((r) => r.verified)).toBe(true);
    // another endpoint's delivery, or an unknown one, is not found under this endpoint
    const wrong = await api('POST', `/admin/webhooks/${good.id}/deliveries/${first.id}/resend`);
    expect(wrong.json()).toMatchObject({ error: { code: 'webhook_delivery_not_found' } });

    for (const w of [good, flaky, gone, other, off]) await api('DELETE', `/admin/webhooks/${w.id}`);
  });

  it('sends run.failed when a run ends failed', async () => {
    const hook = await create('/runs', ['run.failed']);
    const run = await t.container.services.runs.runToEnd('metrics', 'test', () =>
      Promise.reject(new Error('the citation service is away')),
    );
    expect(run.status).toBe('failed');
    const [d] = await until(
      'run.failed',
      () => deliveries(hook.id),
      (x) => x[0]?.status === 'delivered',
    );
    const got = receiver.received.find((r) => r.id === d!.event_id)!;
    expect(got.verified).toBe(true);
    expect(got.json).toMatchObject({
      event: 'run.failed',
      data: { run_id: run.id, kind: 'metrics', error: 'the citation service is away' },
    });
    // the README's five lines verify it as written, and refuse a changed body or another secret
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const code = /## Webhooks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1]!;
    const verify = new Function('require', `${code}; return verify;`)(createRequire(import.meta.url)) as (
      secret: string,
      headers: Received['headers'],
      raw: string,
    ) => boolean;
    expect(verify(hook.secret, got.headers, got.body)).toBe(true);
    expect(verify(hook.secret, got.headers, got.body.replace('metrics', 'scrape'))).toBe(false);
    expect(verify(`${hook.secret}x`, got.headers, got.body)).toBe(false);
    await api('DELETE', `/admin/webhooks/${hook.id}`);
  });
  it('sends report.completed when a weekly report is written; the README’s Python lines verify it too', async () => {
    const hook = await create('/reports', ['report.completed']);
    const db = t.container.database.db;
    const topic = await insertTopic(db, 'Photonics');
    for (const day of [1, 2, 3])
      await insertArticle(db, topic.id, {
        title: `Photonic chip ${day}`,
        publishedAt: new Date(Date.UTC(2026, 10, 9 + day, 12)),
      });
    const job = await weeklyJob(t.app, t.container.batch, admin.headers, {
      topic_id: topic.id,
      week_start: '2026-11-09',
    });
    expect(job.statusCode, job.body).toBe(200);
    const report = (await api('GET', `/weekly-reports/latest?topic_id=${topic.id}`)).json<{ id: string }>();
    const [d] = await until(
      'report.completed',
      () => deliveries(hook.id),
      (x) => x[0]?.status === 'delivered',
    );
    const got = receiver.received.find((r) => r.id === d!.event_id)!;
    expect(got.verified).toBe(true);
    expect(got.json).toMatchObject({
      event: 'report.completed',
      data: {
        report_id: report.id,
        topic_id: topic.id,
        topic: 'Photonics',
        week_start_date: '2026-11-09',
        url: `https://news.example.test/reports?topic=${topic.id}&week=2026-11-09`,
      },
    });
    expect(typeof got.json.data.title).toBe('string');

    // the README's Python, as written, over the bytes as received
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const python = /## Webhooks[\s\S]*?```python\n([\s\S]*?)```/.exec(readme)![1]!;
    const check = (secret: string, body: string) =>
      execFileSync(
        'python3',
        [
          '-c',
          `${python}\nimport json, sys\nd = json.load(sys.stdin)\n` +
            `print(verify(d['secret'], d['headers'], d['body'].encode()))`,
        ],
        { input: JSON.stringify({ secret, headers: got.headers, body }), encoding: 'utf8' },
      ).trim();
    expect(check(hook.secret, got.body)).toBe('True');
    expect(check(hook.secret, got.body.replace('Photonics', 'Acoustics'))).toBe('False');
    expect(check(`${hook.secret}x`, got.body)).toBe('False');
    await api('DELETE', `/admin/webhooks/${hook.id}`);
  });

  it('shows the admin the last 50 deliveries of an endpoint, newest first', async () => {
    const hook = await create('/many', ['run.failed']);
    const repo = new DrizzleWebhookRepository(t.container.database.db);
    const eventIds: string[] = [];
    for (let i = 0; i < 55; i++) {
      const eventId = crypto.randomUUID();
      eventIds.push(eventId);
      await repo.addDeliveries([
        { endpointId: hook.id, event: 'run.failed', eventId, dedupeKey: `run:${eventId}`, body: '{}' },
      ]);
      // PGlite's clock counts milliseconds: deliveries recorded in one millisecond have one time,
      // and "newest first" cannot tell them apart (nor can the admin); these are a moment apart
      await new Promise((r) => setTimeout(r, 2));
    }
    const shown = await deliveries(hook.id);
    expect(shown.map((d) => d.event_id)).toEqual(eventIds.slice(5).reverse());
    await api('DELETE', `/admin/webhooks/${hook.id}`);
  });

  it('finds an article.published lost to a crash and sends it late, once; not one from before the endpoint', async () => {
    const db = t.container.database.db;
    const topic = await insertTopic(db, 'Lost and found');
    const before = await insertArticle(db, topic.id, { title: 'Older than the endpoint' });
    await new Promise((r) => setTimeout(r, 20));
    const hook = await create('/sweep', ['article.published']);
    // completed, but its deliveries were never written: the process died after the final write
    const lost = await insertArticle(db, topic.id, { title: 'Completed just before the crash' });
    const worker = t.container.workers.find((w) => w.name === 'webhook-deliveries')!;
    worker.start(); // a worker sweeps as it starts (as after a restart), then every minute
    await worker.stop();
    const [d] = await until(
      'the late delivery',
      () => deliveries(hook.id),
      (x) => x[0]?.status === 'delivered',
    );
    const got = receiver.received.find((r) => r.id === d!.event_id)!;
    expect(got.verified).toBe(true);
    expect(got.json).toMatchObject({
      event: 'article.published',
      data: { article_id: lost.id, title: 'Completed just before the crash', url: lost.url },
    });
    // a second sweep finds nothing more; the article from before the endpoint is never sent
    worker.start();
    await worker.stop();
    const all = await deliveries(hook.id);
    expect(all.map((x) => x.event_id)).toEqual([d!.event_id]);
    expect(receiver.received.some((r) => r.json.data.article_id === before.id)).toBe(false);
    await api('DELETE', `/admin/webhooks/${hook.id}`);
  });
});
