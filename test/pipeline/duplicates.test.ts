import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { HttpPeer } from '../peers/http-peer.js';
import { makeItem, rssFeed, seedPipeline, type FeedItem } from '../helpers/pipeline-factories.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { DrizzleMetricRefreshStore } from '../../src/infrastructure/db/repositories/metric-refresh.repository.js';
import { DrizzleReportInputs } from '../../src/infrastructure/db/repositories/report-inputs.repository.js';

/**
 * A syndicated copy (another URL, no DOI, no date) and the publisher's copy (DOI, date) of one
 * paper, in every arrival order: the kept article ends up with the DOI and the date, the skip is
 * recorded, and its citation refresh is due. One feed in two topics fills both topics.
 */
interface ArticleRow {
  id: string;
  url: string;
  doi: string | null;
  published_at: Date | string | null;
  topic_id: string;
  metadata: Record<string, unknown> | string;
}

describe.each(dbKinds())('duplicates and topics (%s)', (db) => {
  let t: TestApp;
  let admin: { headers: Record<string, string> };
  /** path → feed items; a missing path answers an empty feed; each answer is delayed as given */
  const feeds: Record<string, FeedItem[]> = {};
  const delays: Record<string, number> = {};
  let peer: HttpPeer;

  beforeAll(async () => {
    peer = await new HttpPeer(async (req, res) => {
      await new Promise((r) => setTimeout(r, delays[req.path] ?? 0));
      res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed(feeds[req.path] ?? []));
    }).start();
    t = await buildTestApp({ db });
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });
  // every run reads every source created so far: the feeds of earlier tests are emptied
  beforeEach(() => {
    for (const path of Object.keys(feeds)) feeds[path] = [];
  });

  const exec = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await t.container.database.db.execute(q));
  const run = () => t.container.services.scraper.runNow('cli');
  const articlesLike = (title: string) =>
    exec<ArticleRow>(sql`select id, url, doi, published_at, topic_id, metadata from articles
                         where title = ${title} order by scraped_at`);
  /** the same paper as the publisher lists it and as a syndicating site copies it */
  const paper = (tag: string) => {
    const publisher = makeItem({
      title: `Sparse attention for protein complexes, ${tag}`,
      doi: `10.5555/dedup.${tag}`,
      published: 'Tue, 03 Nov 2026 09:00:00 GMT',
    });
    const syndicated: FeedItem = {
      ...publisher,
      url: `https://aggregator.example.net/story/${tag}`,
      doi: undefined,
      published: undefined,
    };
    return { publisher, syndicated };
  };
  const topicOf = async (name: string, sources: [string, string][]) =>
    (
      await seedPipeline(t.app, admin.headers, {
        sources: sources.map(([n, path]) => ({ name: n, url: `${peer.url}${path}` })),
      })
    ).topicId;
  const skipsOf = (runId: string) =>
    exec<{ url: string; reason: string; duplicate_of: string }>(
      sql`select url, reason, duplicate_of from scraper_skips where run_id = ${runId}`,
    );

  const expectKeptWithDoi = async (title: string, doi: string) => {
    const rows = await articlesLike(title);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.doi).toBe(doi);
    expect(new Date(rows[0]!.published_at!).toISOString()).toBe('2026-11-03T09:00:00.000Z');
    const metadata =
      typeof rows[0]!.metadata === 'string'
        ? (JSON.parse(rows[0]!.metadata) as Record<string, unknown>)
        : rows[0]!.metadata;
    expect(metadata.doi).toBe(doi);
    return rows[0]!;
  };

  for (const first of ['syndicated', 'publisher'] as const) {
    it(`in one run, the ${first} copy read first (sources fetched concurrently): the kept article has the DOI`, async () => {
      const { publisher, syndicated } = paper(`one-run-${first}`);
      const tag = Math.random().toString(36).slice(2, 8);
      // sources run in name order; the first one answers last, so the order of arrival is the
      // reverse of the order of reading
      const [a, b] = [`/${tag}-a.xml`, `/${tag}-b.xml`];
      feeds[a] = [first === 'syndicated' ? syndicated : publisher, makeItem()];
      feeds[b] = [first === 'syndicated' ? publisher : syndicated];
      delays[a] = 150;
      await topicOf('one run', [
        [`A ${tag}`, a],
        [`B ${tag}`, b],
      ]);
      const result = await run();
      expect(result.status).toBe('completed');
      expect(result.counts).toMatchObject({ published: 2, duplicates: 1, duplicates_title: 1 });
      const kept = await expectKeptWithDoi(publisher.title, publisher.doi!);
      expect(kept.url).toBe(first === 'syndicated' ? syndicated.url : publisher.url);
      expect(await skipsOf(result.id)).toEqual([
        {
          url: first === 'syndicated' ? publisher.url : syndicated.url,
          reason: 'title',
          duplicate_of: first === 'syndicated' ? syndicated.url : publisher.url,
        },
      ]);
    });
  }

  it('in separate runs, syndicated copy first: the stored article gains DOI and date, and its citation refresh is due', async () => {
    const { publisher, syndicated } = paper('two-runs');
    const tag = Math.random().toString(36).slice(2, 8);
    feeds[`/${tag}-synd.xml`] = [syndicated];
    await topicOf('two runs', [
      [`A ${tag}`, `/${tag}-synd.xml`],
      [`B ${tag}`, `/${tag}-pub.xml`],
    ]);
    const r1 = await run();
    expect(r1.counts).toMatchObject({ published: 1 });
    const [before] = await articlesLike(publisher.title);
    expect(before).toMatchObject({ doi: null, published_at: null });

    // the refresh found no identifier: null stored, not due again for a day
    await exec(sql`insert into article_metrics (article_id, metric_key, value, source, refreshed_at)
                   values (${before!.id}, 'citation_count', null, null, now())`);
    const refresh = new DrizzleMetricRefreshStore(t.container.database.db);
    const dayAgo = new Date(Date.now() - 86_400_000);
    const due = async () =>
      (await refresh.candidates(['citation_count'], dayAgo, { after: null, limit: 10_000 })).find(
        (c) => c.id === before!.id,
      );
    expect(await due()).toBeUndefined();

    feeds[`/${tag}-pub.xml`] = [publisher];
    const r2 = await run();
    expect(r2.status).toBe('completed');
    expect(r2.counts).toMatchObject({ duplicates_title: 1, enriched: 1 });
    expect(r2.counts.published ?? 0).toBe(0);
    const kept = await expectKeptWithDoi(publisher.title, publisher.doi!);
    expect(kept.id).toBe(before!.id);
    expect(await skipsOf(r2.id)).toContainEqual({
      url: publisher.url,
      reason: 'title',
      duplicate_of: syndicated.url,
    });
    expect(await due()).toMatchObject({ id: before!.id, doi: publisher.doi });

    // a third run changes nothing more
    const r3 = await run();
    expect(r3.counts.enriched ?? 0).toBe(0);
  });

  it('in separate runs, publisher copy first: the syndicated copy is skipped and takes nothing away', async () => {
    const { publisher, syndicated } = paper('two-runs-reverse');
    const tag = Math.random().toString(36).slice(2, 8);
    feeds[`/${tag}-pub.xml`] = [publisher];
    await topicOf('reverse', [
      [`A ${tag}`, `/${tag}-pub.xml`],
      [`B ${tag}`, `/${tag}-synd.xml`],
    ]);
    await run();
    feeds[`/${tag}-synd.xml`] = [syndicated];
    const r2 = await run();
    expect(r2.counts.enriched ?? 0).toBe(0);
    expect(await skipsOf(r2.id)).toContainEqual({
      url: syndicated.url,
      reason: 'title',
      duplicate_of: publisher.url,
    });
    expect((await expectKeptWithDoi(publisher.title, publisher.doi!)).url).toBe(publisher.url);
  });

  it('one feed in two topics fills both topics: one article in both lists and both weekly reports', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const items = [
      makeItem({ title: `Shared item one ${tag}` }),
      makeItem({ title: `Shared item two ${tag}` }),
    ];
    feeds[`/${tag}-shared.xml`] = items;
    // sources are read in name order: the first topic's source first, so it keeps the item
    const first = await topicOf('first', [[`Shared A ${tag}`, `/${tag}-shared.xml`]]);
    const second = await topicOf('second', [[`Shared B ${tag}`, `/${tag}-shared.xml`]]);
    const result = await run();
    expect(result.status).toBe('completed');

    const rows = await exec<{ id: string; title: string; topic_id: string }>(
      sql`select id, title, topic_id from articles where title like ${`Shared item % ${tag}`} order by title`,
    );
    // one row per item (views, favorites and citations are never split), kept under the first topic
    expect(rows.map((r) => r.title)).toEqual(items.map((i) => i.title));
    for (const r of rows) expect(r.topic_id).toBe(first);

    const list = async (topicId: string) =>
      (await t.app.inject({ url: `/articles?topic_id=${topicId}&sort=scraped_at&limit=100` })).json<{
        items: { id: string; topic_id: string }[];
        total: number;
      }>();
    for (const topicId of [first, second]) {
      const page = await list(topicId);
      expect(page.items.map((i) => i.id).sort()).toEqual(rows.map((r) => r.id).sort());
      expect(page.total).toBe(2);
    }

    // a view and a favorite of the article count once, whichever topic's list it was found in
    const user = await t.login('user');
    await t.app.inject({ method: 'POST', url: `/user/favorites/${rows[0]!.id}`, headers: user.headers });
    const favorites = async (topicId: string) =>
      (
        await t.app.inject({
          url: `/articles?topic_id=${topicId}&favorites_only=true`,
          headers: user.headers,
        })
      ).json<{ items: { id: string; is_favorited: boolean }[] }>().items;
    expect(await favorites(first)).toEqual([
      expect.objectContaining({ id: rows[0]!.id, is_favorited: true }),
    ]);
    expect(await favorites(second)).toEqual([
      expect.objectContaining({ id: rows[0]!.id, is_favorited: true }),
    ]);

    const inputs = new DrizzleReportInputs(t.container.database.db);
    const week = { from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z') };
    const active = (await inputs.activeTopicsWithArticles(week)).map((x) => x.id);
    expect(active).toEqual(expect.arrayContaining([first, second]));
    for (const topicId of [first, second]) {
      const top = await inputs.topArticles(topicId, week, 50);
      expect(top.map((a) => a.id).sort()).toEqual(expect.arrayContaining(rows.map((r) => r.id)));
    }
  });

  it('a topic whose source carries a stored item later gets it in the next run', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const item = makeItem({ title: `Late shared item ${tag}` });
    feeds[`/${tag}-late.xml`] = [item];
    const first = await topicOf('late first', [[`Late ${tag}`, `/${tag}-late.xml`]]);
    await run();
    const second = await topicOf('late second', [[`Late too ${tag}`, `/${tag}-late.xml`]]);
    const r2 = await run();
    expect(r2.counts).toMatchObject({ topic_links: 1 });
    const [row] = await exec<{ id: string }>(sql`select id from articles where title = ${item.title}`);
    for (const topicId of [first, second]) {
      const page = (await t.app.inject({ url: `/articles?topic_id=${topicId}` })).json<{
        items: { id: string }[];
      }>();
      expect(page.items.map((i) => i.id)).toEqual([row!.id]);
    }
    const links = await exec<{ topic_id: string; first_seen_at: Date | string }>(
      sql`select topic_id, first_seen_at from article_topics where article_id = ${row!.id}`,
    );
    expect(links.map((l) => l.topic_id).sort()).toEqual([first, second].sort());
  });
  it('a preprint (an arXiv entry naming its journal DOI) and its journal version are both stored, then one work', async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const title = `Bounded model checking of smart contracts, ${tag}`;
    const doi = `10.1145/dedup.${tag}`;
    // arXiv's entry carries its journal version's DOI (arxiv:doi); the journal lists the same title
    const preprint = makeItem({
      title,
      url: `http://arxiv.org/abs/2409.${String(Date.now() % 100000).padStart(5, '0')}v1`,
      doi,
    });
    const journal = makeItem({ title, url: `https://dl.acm.org/doi/${doi}`, doi });
    const reprint = makeItem({ title, url: `https://mirror.example.net/${tag}`, doi });
    feeds[`/${tag}-arxiv.xml`] = [preprint];
    feeds[`/${tag}-acm.xml`] = [journal, reprint];
    await topicOf('versions', [
      [`arXiv ${tag}`, `/${tag}-arxiv.xml`],
      [`ACM ${tag}`, `/${tag}-acm.xml`],
    ]);
    const result = await run();
    expect(result.status).toBe('completed');
    // the reprint is a copy of the journal version (its DOI), not a third version
    expect(result.counts).toMatchObject({ published: 2, duplicates: 1 });
    const rows = await articlesLike(title);
    expect(rows.map((r) => r.url).sort()).toEqual([journal.url, preprint.url].sort());
    expect(await skipsOf(result.id)).toEqual([
      { url: reprint.url, reason: 'doi', duplicate_of: journal.url },
    ]);
    await t.container.services.workLinker.linkArticles(rows.map((r) => r.id));
    const work = await t.container.services.works.get(rows[0]!.id);
    expect(work.versions.map((v) => [v.url, v.role]).sort()).toEqual(
      [
        [journal.url, 'published'],
        [preprint.url, 'preprint'],
      ].sort(),
    );
  });
});
