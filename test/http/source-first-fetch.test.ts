import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { HttpPeer } from '../peers/http-peer.js';
import type { Database } from '../../src/infrastructure/db/client.js';

const RSS = readFileSync(new URL('../fixtures/feeds/node-feedparser/rss2sample.xml', import.meta.url));

interface SourceRow {
  id: string;
  last_fetch: { http_status: number | null; run_id: string | null } | null;
}

/**
 * A new source's first read, asked for while another scraper run is under way, is a durable job
 * (`source.first-fetch`): a process that stops before that run has ended loses nothing, the next
 * process on the same database reads the source.
 */
describe.each(dbKinds())('a queued first fetch survives a restart (%s)', (kind) => {
  let database: Database;
  let peer: HttpPeer;
  /** while set, a read of a feed with `?held` waits for it: a run stays under way until released */
  let held: Promise<void> | null = null;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    peer = await new HttpPeer(async (req, res) => {
      if (req.query.has('held')) await held;
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS);
    }).start();
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => undefined);
    await database?.close();
    await peer?.stop();
  });

  const service = async () => {
    const t = await buildTestApp({ db: kind, database });
    apps.push(t);
    return { t, admin: (await t.login('admin')).headers };
  };
  const sources = async (t: TestApp, admin: Record<string, string>) =>
    (await t.app.inject({ url: '/admin/sources', headers: admin })).json<SourceRow[]>();

  it('is read by the next process once the run that blocked it has ended', async () => {
    const first = await service();
    const api = (method: 'POST' | 'GET', url: string, payload?: object) =>
      first.t.app.inject({ method, url, headers: first.admin, ...(payload ? { payload } : {}) });
    const topicId = (await api('POST', '/admin/topics', { name: `Restart ${kind}` })).json<{ id: string }>()
      .id;
    const busy = (
      await api('POST', '/admin/sources', {
        topic_id: topicId,
        kind: 'rss',
        url: `${peer.url}/busy.xml?held`,
      })
    ).json<{ id: string }>();
    let release!: () => void;
    held = new Promise<void>((r) => (release = r));
    let closing: Promise<void> | undefined;
    try {
      expect((await api('POST', `/admin/sources/${busy.id}/fetch`)).statusCode).toBe(202);
      const created = await api('POST', '/admin/sources', {
        topic_id: topicId,
        kind: 'rss',
        url: `${peer.url}/new.xml?restart`,
        fetch_now: true,
      });
      expect(created.statusCode).toBe(201);
      // a run is under way: the first read is queued, not started
      expect(created.json<{ first_fetch_run_id: string | null }>().first_fetch_run_id).toBeNull();
      const id = created.json<SourceRow>().id;
      // the process stops while the blocking run is still under way (its end lets the stop finish)
      closing = first.t.close();
      await new Promise((r) => setTimeout(r, 200));
      release();
      await closing;
      apps.splice(apps.indexOf(first.t), 1);
      const reads = peer.requests.filter((r) => r.query.has('restart')).length;

      // the next process on the same database, with its workers as `npm start` runs them
      const next = await service();
      for (const w of next.t.container.workers.filter((w) => w.name === 'source-first-fetch'))
        await w.ready!();
      await expect
        .poll(
          async () => (await sources(next.t, next.admin)).find((s) => s.id === id)?.last_fetch?.http_status,
          {
            timeout: 60_000,
            interval: 250,
          },
        )
        .toBe(200);
      expect(peer.requests.filter((r) => r.query.has('restart')).length).toBeGreaterThan(reads);
      const row = (await sources(next.t, next.admin)).find((s) => s.id === id)!;
      expect(row.last_fetch?.run_id).toEqual(expect.any(String));
    } finally {
      release();
      held = null;
      await closing?.catch(() => undefined);
    }
  }, 180_000);
});
