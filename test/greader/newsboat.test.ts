import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { webRoleInFront } from '../helpers/web-role.js';
import { makeArticle, makeSource, makeTopic } from '../helpers/article-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';
import { longItemId } from '../../src/domain/greader.js';

const run = promisify(execFile);
const hasNewsboat = await run('newsboat', ['-v']).then(
  () => true,
  () => false,
);

/**
 * newsboat (Debian's package) with its FeedHQ source — a Google Reader API client — pointed at the
 * web role's public address, with the api role behind it, both on loopback. `-x reload` syncs every
 * subscription's articles into newsboat's cache (read here with node:sqlite); opening an article on
 * newsboat's own screen (driven through a pseudo-terminal) marks it read in the web app; an article
 * marked read in the web app is read in newsboat after the next reload. The README's login line is
 * run as written, with curl.
 */
// CI installs newsboat (.ci/run): there a missing client fails the run instead of skipping
describe.skipIf(!hasNewsboat && !process.env.CI)('newsboat syncs through the Google Reader API', () => {
  let t: TestApp;
  let web: FastifyInstance;
  let webUrl: string;
  let dir: string;
  let email: string;
  let token: string;
  let session: { headers: Record<string, string> };
  const ids: Record<string, string> = {};
  const files = () => ({
    config: join(dir, 'config'),
    cache: join(dir, 'cache.db'),
    urls: join(dir, 'urls'),
  });

  beforeAll(async () => {
    t = await buildTestApp();
    ({ web, webUrl } = await webRoleInFront(t));
    email = `newsboat-${Date.now()}@example.test`;
    session = await t.login('user', email);
    token = (await makeToken(t, session, 'write')).token;
    const db = t.container.database.db;
    for (const [topicName, sourceName] of [
      ['Quantum', 'Qubit Weekly'],
      ['Climate', 'Ice Report'],
    ] as const) {
      const topic = await makeTopic(db, { name: `${topicName} ${Date.now()}` });
      // stored as the pipeline stores them: with their source's id (a feed stream follows it)
      const source = await makeSource(db, { topicId: topic.id, name: sourceName });
      for (let i = 0; i < 3; i++) {
        const a = await makeArticle(db, {
          topicId: topic.id,
          source: sourceName,
          sourceId: source.id,
          title: `${sourceName} story ${i}`,
          summary: `What ${sourceName} found, part ${i}`,
          publishedAt: new Date(Date.UTC(2026, 0, 10 + i)),
          scrapedAt: new Date(Date.UTC(2026, 0, 10 + i)),
        });
        ids[a.title] = a.id;
      }
    }
    dir = mkdtempSync(join(tmpdir(), 'newsboat-'));
    const f = files();
    writeFileSync(f.urls, '');
    writeFileSync(
      f.config,
      [
        'urls-source "feedhq"',
        `feedhq-url "${webUrl}"`,
        `feedhq-login "${email}"`,
        `feedhq-password "${token}"`,
        'feedhq-min-items 50',
        'show-read-feeds yes',
        'confirm-exit no',
        '',
      ].join('\n'),
    );
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const reload = async () => {
    const f = files();
    await run('newsboat', ['-C', f.config, '-c', f.cache, '-u', f.urls, '-x', 'reload'], {
      env: { ...process.env, HOME: dir },
      timeout: 60_000,
    });
  };
  const cached = () => {
    const db = new DatabaseSync(files().cache, { readOnly: true });
    try {
      return db.prepare('select guid, title, content, unread from rss_item order by title').all() as {
        guid: string;
        title: string;
        content: string;
        unread: number;
      }[];
    } finally {
      db.close();
    }
  };

  it("the README's login line answers Auth= through the web role", async () => {
    // README, "Reading on your phone": curl -d Email=<you> -d Passwd=<token> <address>/accounts/ClientLogin
    const { stdout } = await run('curl', [
      '-s',
      '-d',
      `Email=${email}`,
      '-d',
      `Passwd=${token}`,
      `${webUrl}/accounts/ClientLogin`,
    ]);
    expect(stdout).toContain(`Auth=${token}`);
    const { stdout: bad } = await run('curl', [
      '-s',
      '-d',
      `Email=${email}`,
      '-d',
      'Passwd=wrong',
      `${webUrl}/accounts/ClientLogin`,
    ]);
    expect(bad).toBe('Error=BadAuthentication\n');
  });

  it('-x reload brings every topic’s articles with their titles and the summary block', async () => {
    await reload();
    const items = cached();
    expect(items.map((i) => i.title).sort()).toEqual(Object.keys(ids).sort());
    for (const item of items) {
      expect(item.guid).toBe(longItemId(ids[item.title]!));
      expect(item.content).toContain('ais-summary');
      expect(item.content).toContain('What ');
      expect(item.unread).toBe(1);
    }
  }, 90_000);

  it('opening an article in newsboat marks it read in the web app', async () => {
    const drive = await run(
      'python3',
      [join(__dirname, 'drive-newsboat.py'), files().config, files().cache, files().urls],
      {
        env: { ...process.env, HOME: dir },
        timeout: 60_000,
      },
    ).catch((e: { stdout?: string; code?: number }) => ({ stdout: e.stdout ?? '', code: e.code }));
    const readInNewsboat = cached().filter((i) => i.unread === 0);
    expect(readInNewsboat.length, drive.stdout.slice(-800)).toBeGreaterThanOrEqual(1);
    // the web app's list (opening an article there would mark it read itself)
    const all = (await t.app.inject({ url: '/articles?limit=100', headers: session.headers })).json<{
      items: { title: string; is_read: boolean }[];
    }>();
    for (const item of readInNewsboat)
      expect(all.items.find((a) => a.title === item.title)?.is_read, item.title).toBe(true);
    // and the ones newsboat did not open are still unread in the web app
    const unread = (
      await t.app.inject({ url: '/articles?unread_only=true&limit=100', headers: session.headers })
    ).json();
    expect(unread.total).toBe(6 - readInNewsboat.length);
  }, 90_000);

  it('an article marked read in the web app is read in newsboat after a reload, and unread again the same way', async () => {
    const id = ids['Ice Report story 0']!;
    expect(
      (await t.app.inject({ method: 'PUT', url: `/articles/${id}/read`, headers: session.headers }))
        .statusCode,
    ).toBeLessThan(300);
    await reload();
    expect(cached().find((i) => i.title === 'Ice Report story 0')?.unread).toBe(0);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/articles/${id}/read`, headers: session.headers }))
        .statusCode,
    ).toBeLessThan(300);
    await reload();
    expect(cached().find((i) => i.title === 'Ice Report story 0')?.unread).toBe(1);
  }, 120_000);
});
