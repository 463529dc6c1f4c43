import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { link, linkRows, linksOf, makeGroup, makeTag, tagNamed } from '../helpers/tag-factories.js';
import { tagNormalizationSuggestions, tags } from '../../src/infrastructure/db/schema/index.js';
import type { Db } from '../../src/infrastructure/db/client.js';

const NO_ID = '00000000-0000-4000-8000-000000000000';

interface Row {
  id: string;
  name: string;
  group_name: string | null;
  article_count: number;
  created_at: string;
}

describe.each(dbKinds())('tag curation: table, bulk merge and move (%s)', (kind) => {
  let t: TestApp;
  let db: Db;
  let admin: { id: string; headers: { authorization: string } };

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    db = t.container.database.db;
    admin = await t.login('admin');
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = admin.headers) =>
    t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: unknown, headers: Record<string, string> = admin.headers) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
  const table = async (query: string) => {
    const res = await get(`/admin/tags?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { items: Row[]; total: number; limit: number; offset: number };
  };
  const names = (page: { items: Row[] }) => page.items.map((r) => r.name);

  /**
   * "Photonics" group: lasers (3 articles), optics (1); "Quantum" group: qubits (2), 量子計算 (0);
   * ungrouped: Quantum-Dots… stored as "quantum dots" (1), 量子位元 (4), "100%_pure" (0).
   * Created one day apart in the order listed.
   */
  async function seedTable() {
    const topic = await makeTopic(db);
    const photonics = await makeGroup(db, topic.id, { displayName: 'Photonics' });
    const quantum = await makeGroup(db, topic.id, { displayName: 'Quantum' });
    const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));
    const spec: [string, string | null, number][] = [
      ['lasers', photonics.id, 3],
      ['optics', photonics.id, 1],
      ['qubits', quantum.id, 2],
      ['量子計算', quantum.id, 0],
      ['quantum dots', null, 1],
      ['量子位元', null, 4],
      ['100%_pure', null, 0],
    ];
    const articles = [];
    for (let i = 0; i < 4; i++) articles.push(await makeArticle(db, { topicId: topic.id }));
    const made: Record<string, string> = {};
    for (const [i, [name, group, count]] of spec.entries()) {
      const tag = await makeTag(db, topic.id, name, group, { createdAt: day(i) });
      made[name] = tag.id;
      if (count) await link(db, articles[0]!.id, tag.id);
      for (let a = 1; a < count; a++) await link(db, articles[a]!.id, tag.id);
    }
    return { topic, photonics, quantum, ids: made };
  }

  it('pages, sorts and searches the tags of a topic', async () => {
    const { topic, photonics } = await seedTable();
    const base = `topic_id=${topic.id}`;

    const first = await table(base);
    expect(first).toMatchObject({ total: 7, limit: 50, offset: 0 });
    expect(names(first)).toEqual([
      '100%_pure',
      'lasers',
      'optics',
      'quantum dots',
      'qubits',
      '量子位元',
      '量子計算',
    ]);
    expect(first.items.find((r) => r.name === 'lasers')).toMatchObject({
      group_name: 'Photonics',
      article_count: 3,
      created_at: '2026-01-01T00:00:00.000Z',
    });

    // pages of 3: no overlap, nothing missed, total stays
    const pages = [];
    for (let offset = 0; offset < 7; offset += 3) pages.push(await table(`${base}&limit=3&offset=${offset}`));
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
    expect(pages.flatMap(names)).toEqual(names(first));
    expect((await table(`${base}&offset=50`)).items).toEqual([]);

    expect(names(await table(`${base}&sort=name&order=desc&limit=2`))).toEqual(['量子計算', '量子位元']);
    // by article count: most first by default, ties by name
    const byCount = await table(`${base}&sort=article_count`);
    expect(byCount.items.map((r) => `${r.name}:${r.article_count}`)).toEqual([
      '量子位元:4',
      'lasers:3',
      'qubits:2',
      'optics:1',
      'quantum dots:1',
      '100%_pure:0',
      '量子計算:0',
    ]);
    expect(names(await table(`${base}&sort=article_count&order=asc&limit=2`))).toEqual([
      '100%_pure',
      '量子計算',
    ]);
    // by group: groups by name, Ungrouped last both ways
    expect(names(await table(`${base}&sort=group`))).toEqual([
      'lasers',
      'optics',
      'qubits',
      '量子計算',
      '100%_pure',
      'quantum dots',
      '量子位元',
    ]);
    expect((await table(`${base}&sort=group&order=desc`)).items.map((r) => r.group_name)).toEqual([
      'Quantum',
      'Quantum',
      'Photonics',
      'Photonics',
      null,
      null,
      null,
    ]);
    // by creation: newest first by default
    expect(names(await table(`${base}&sort=created_at&limit=3`))).toEqual([
      '100%_pure',
      '量子位元',
      'quantum dots',
    ]);
    expect(names(await table(`${base}&sort=created_at&order=asc&limit=2`))).toEqual(['lasers', 'optics']);

    // search: substring, case-insensitive, NFKC and spaces normalized as names are, CJK, LIKE characters literal
    expect(names(await table(`${base}&q=QUANT`))).toEqual(['quantum dots']);
    expect(names(await table(`${base}&q=${encodeURIComponent('  Ｑuantum   DOTS ')}`))).toEqual([
      'quantum dots',
    ]);
    expect(names(await table(`${base}&q=${encodeURIComponent('量子')}`))).toEqual(['量子位元', '量子計算']);
    expect(names(await table(`${base}&q=${encodeURIComponent('位')}`))).toEqual(['量子位元']);
    expect(names(await table(`${base}&q=${encodeURIComponent('%')}`))).toEqual(['100%_pure']);
    expect(names(await table(`${base}&q=_`))).toEqual(['100%_pure']);
    expect(await table(`${base}&q=zzz`)).toMatchObject({ items: [], total: 0 });
    expect((await table(`${base}&q=`)).total).toBe(7);

    // by group, and the ungrouped ones
    expect(names(await table(`${base}&group_id=${photonics.id}`))).toEqual(['lasers', 'optics']);
    expect(names(await table(`${base}&group_id=ungrouped&q=quantum`))).toEqual(['quantum dots']);
    // only this topic's tags
    const other = await makeTopic(db);
    await makeTag(db, other.id, 'lasers');
    expect((await table(`${base}&q=lasers`)).total).toBe(1);
  });

  it('refuses hostile and malformed queries with 422, unknown topics with 404, non-admins', async () => {
    const { topic } = await seedTable();
    for (const query of [
      `q=${encodeURIComponent('a\u0000b')}`,
      `q=${'x'.repeat(201)}`,
      'sort=popularity',
      'sort=name;drop table tags',
      'order=up',
      'limit=0',
      'limit=101',
      'offset=-1',
      'group_id=photonics',
      'topic_id=not-a-uuid',
      'tag=x',
    ]) {
      const res = await get(`/admin/tags?topic_id=${topic.id}&${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error.code, query).toBe('validation_error');
    }
    expect((await get(`/admin/tags?topic_id=${NO_ID}`)).statusCode).toBe(404);
    expect((await get(`/admin/tags?topic_id=${topic.id}`, {})).statusCode).toBe(401);
    const user = await t.login('user');
    expect((await get(`/admin/tags?topic_id=${topic.id}`, user.headers)).statusCode).toBe(403);
    expect(
      (await post('/admin/tags/merge', { source_ids: [NO_ID], target_id: NO_ID }, user.headers)).statusCode,
    ).toBe(403);
  });

  /** target "llm" on a1,a2; source "llms" on a2,a3; source "large language models" on a3,a4 */
  async function seedMerge() {
    const topic = await makeTopic(db);
    const group = await makeGroup(db, topic.id, { displayName: 'Models' });
    const a = [];
    for (let i = 0; i < 5; i++) a.push(await makeArticle(db, { topicId: topic.id, title: `Paper ${i}` }));
    const target = await makeTag(db, topic.id, 'llm', group.id);
    const s1 = await makeTag(db, topic.id, 'llms');
    const s2 = await makeTag(db, topic.id, 'large language models', group.id);
    const bystander = await makeTag(db, topic.id, 'agents');
    await link(db, a[0]!.id, target.id, bystander.id);
    await link(db, a[1]!.id, target.id, s1.id);
    await link(db, a[2]!.id, s1.id, s2.id);
    await link(db, a[3]!.id, s2.id);
    return { topic, group, a, target, s1, s2, bystander };
  }

  it('previews a merge exactly, then merges in one step: links de-duplicated, counts right, idempotent', async () => {
    const { topic, a, target, s1, s2 } = await seedMerge();
    const articleIds = a.map((x) => x.id);
    const before = await linksOf(db, articleIds);
    expect(await linkRows(db, topic.id)).toBe(7);
    const body = { source_ids: [s1.id, s2.id, s1.id], target_id: target.id };

    const preview = await post('/admin/tags/merge', { ...body, dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    expect(p).toMatchObject({
      dry_run: true,
      target: { id: target.id, name: 'llm', group_name: 'Models', article_count: 2 },
      // a1: has llm already (a[1] via llms: dropped); a[2] via llms and via lmm: one moves, one dropped; a[3] moves
      links_moved: 2,
      links_dropped: 2,
      target_article_count: { before: 2, after: 4 },
      already_merged: [],
    });
    expect(p.removed.map((r: Row) => `${r.name}:${r.article_count}`)).toEqual([
      'large language models:2',
      'llms:2',
    ]);
    // a dry run changes nothing
    expect(await linksOf(db, articleIds)).toEqual(before);
    expect(await tagNamed(db, topic.id, 'llms')).not.toBeNull();

    const done = await post('/admin/tags/merge', body);
    expect(done.statusCode, done.body).toBe(200);
    expect({ ...done.json(), dry_run: true }).toEqual(p);
    expect(await linksOf(db, articleIds)).toEqual(
      [
        `${a[0]!.id}→agents`,
        `${a[0]!.id}→llm`,
        `${a[1]!.id}→llm`,
        `${a[2]!.id}→llm`,
        `${a[3]!.id}→llm`,
      ].sort(),
    );
    expect(await linkRows(db, topic.id)).toBe(5);
    expect(await tagNamed(db, topic.id, 'llms')).toBeNull();
    expect(await tagNamed(db, topic.id, 'large language models')).toBeNull();
    const counts = await table(`topic_id=${topic.id}&sort=article_count`);
    expect(counts.items.map((r) => `${r.name}:${r.article_count}`)).toEqual(['llm:4', 'agents:1']);

    // the same request again (a retry): nothing left to do, nothing changes, no error
    const again = await post('/admin/tags/merge', body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      removed: [],
      links_moved: 0,
      links_dropped: 0,
      target_article_count: { before: 4, after: 4 },
    });
    expect(again.json().already_merged.sort()).toEqual([s1.id, s2.id].sort());
    expect(await linkRows(db, topic.id)).toBe(5);

    // the tagger meets a merged name again: it links the target, no tag comes back
    const r = await t.container.tagger.tagArticle({
      topicId: topic.id,
      articleId: a[4]!.id,
      names: ['LLMs'],
    });
    expect(r.createdTags).toEqual([]);
    expect(r.tagIds).toEqual([target.id]);
    expect(await tagNamed(db, topic.id, 'llms')).toBeNull();
  });

  it('refuses a merge into itself, unknown ids, other topics and bad bodies; a refused merge changes nothing', async () => {
    const { topic, target, s1, bystander } = await seedMerge();
    const rows = await linkRows(db, topic.id);
    const cases: [unknown, number, string][] = [
      [{ source_ids: [s1.id, target.id], target_id: target.id }, 422, 'merge_into_itself'],
      [{ source_ids: [s1.id, NO_ID], target_id: target.id }, 404, 'tag_not_found'],
      [{ source_ids: [s1.id], target_id: NO_ID }, 404, 'tag_not_found'],
      [{ source_ids: [], target_id: target.id }, 422, 'validation_error'],
      [{ source_ids: ['x'], target_id: target.id }, 422, 'validation_error'],
      [{ source_ids: [s1.id], target_id: `${target.id}\u0000` }, 422, 'validation_error'],
      [{ source_ids: [s1.id], target_id: target.id, dry_run: 'yes' }, 422, 'validation_error'],
      [{ source_ids: [s1.id], target_id: target.id, extra: 1 }, 422, 'validation_error'],
      [{ source_ids: Array(1001).fill(s1.id), target_id: target.id }, 422, 'validation_error'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await post('/admin/tags/merge', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
    const unknown = await post('/admin/tags/merge', { source_ids: [s1.id, NO_ID], target_id: target.id });
    expect(unknown.json().error.details).toEqual([{ path: '/source_ids', message: `unknown tag ${NO_ID}` }]);

    const other = await makeTopic(db);
    const foreign = await makeTag(db, other.id, 'llm');
    const res = await post('/admin/tags/merge', {
      source_ids: [foreign.id, bystander.id],
      target_id: target.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('topic_mismatch');
    expect(await linkRows(db, topic.id)).toBe(rows);
    expect(await tagNamed(db, topic.id, 'llms')).not.toBeNull();
    expect(await tagNamed(db, topic.id, 'agents')).not.toBeNull();
  });

  it('drops pending suggestions about merged tags, and re-points earlier merges into a merged tag', async () => {
    const { topic, a, target, s1, s2 } = await seedMerge();
    await db.insert(tagNormalizationSuggestions).values({
      topicId: topic.id,
      newTagId: s1.id,
      existingTagId: target.id,
      newTagName: 'llms',
      existingTagName: 'llm',
      similarityScore: 0.95,
    });
    // "llms" into "large language models", then that into "llm": "llms" must lead to "llm"
    expect((await post('/admin/tags/merge', { source_ids: [s1.id], target_id: s2.id })).statusCode).toBe(200);
    const pending = await db
      .select()
      .from(tagNormalizationSuggestions)
      .where(eq(tagNormalizationSuggestions.topicId, topic.id));
    expect(pending).toEqual([]);
    expect((await post('/admin/tags/merge', { source_ids: [s2.id], target_id: target.id })).statusCode).toBe(
      200,
    );
    const r = await t.container.tagger.tagArticle({
      topicId: topic.id,
      articleId: a[4]!.id,
      names: ['llms'],
    });
    expect(r).toMatchObject({ tagIds: [target.id], createdTags: [] });
  });

  it('previews and applies a bulk move; a name the group already holds is merged into that tag', async () => {
    const topic = await makeTopic(db);
    const photonics = await makeGroup(db, topic.id, { displayName: 'Photonics' });
    const other = await makeGroup(db, topic.id, { displayName: 'Other' });
    const a1 = await makeArticle(db, { topicId: topic.id });
    const a2 = await makeArticle(db, { topicId: topic.id });
    const kept = await makeTag(db, topic.id, 'lasers', photonics.id);
    const twin = await makeTag(db, topic.id, 'lasers', other.id);
    const optics = await makeTag(db, topic.id, 'optics');
    const already = await makeTag(db, topic.id, 'mirrors', photonics.id);
    await link(db, a1.id, kept.id, twin.id, optics.id);
    await link(db, a2.id, twin.id);
    const body = { tag_ids: [twin.id, optics.id, already.id], tag_group_id: photonics.id };

    const preview = await post('/admin/tags/move', { ...body, dry_run: true });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    expect(p.moved.map((r: Row) => r.name)).toEqual(['optics']);
    expect(p.unchanged.map((r: Row) => r.name)).toEqual(['mirrors']);
    expect(p.merged).toEqual([
      {
        into: { id: kept.id, name: 'lasers' },
        removed: [expect.objectContaining({ id: twin.id, group_name: 'Other', article_count: 2 })],
        links_moved: 1,
        links_dropped: 1,
      },
    ]);
    expect((await tagNamed(db, topic.id, 'optics'))!.tagGroupId).toBeNull();

    const done = await post('/admin/tags/move', body);
    expect(done.statusCode, done.body).toBe(200);
    expect({ ...done.json(), dry_run: true }).toEqual(p);
    const page = await table(`topic_id=${topic.id}&group_id=${photonics.id}`);
    expect(page.items.map((r) => `${r.name}:${r.article_count}`)).toEqual([
      'lasers:2',
      'mirrors:0',
      'optics:1',
    ]);
    expect((await db.select().from(tags).where(eq(tags.id, twin.id))).length).toBe(0);
    // a retry finds the work done
    const again = await post('/admin/tags/move', body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ moved: [], merged: [], already_merged: [twin.id] });
    expect(again.json().unchanged.map((r: Row) => r.name)).toEqual(['mirrors', 'optics']);

    // to Ungrouped, and refusals
    const ungroup = await post('/admin/tags/move', { tag_ids: [optics.id], tag_group_id: null });
    expect(ungroup.json().moved.map((r: Row) => r.group_name)).toEqual(['Photonics']);
    expect((await tagNamed(db, topic.id, 'optics'))!.tagGroupId).toBeNull();
    const foreignGroup = await makeGroup(db, (await makeTopic(db)).id);
    for (const [payload, status, code] of [
      [{ tag_ids: [optics.id], tag_group_id: foreignGroup.id }, 422, 'topic_mismatch'],
      [{ tag_ids: [optics.id], tag_group_id: NO_ID }, 404, 'tag_group_not_found'],
      [{ tag_ids: [NO_ID], tag_group_id: null }, 404, 'tag_not_found'],
      [{ tag_ids: [optics.id] }, 422, 'validation_error'],
    ] as const) {
      const res = await post('/admin/tags/move', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
  });

  it('lists suggestions with similarity, tag article counts and the articles behind them', async () => {
    const topic = await makeTopic(db);
    const group = await makeGroup(db, topic.id, { displayName: 'Models' });
    const existing = await makeTag(db, topic.id, 'llm', group.id);
    const fresh = await makeTag(db, topic.id, 'llms');
    const trigger = await makeArticle(db, { topicId: topic.id, title: 'Scaling laws revisited' });
    const more = [];
    for (let i = 0; i < 3; i++) more.push(await makeArticle(db, { topicId: topic.id, title: `More ${i}` }));
    await link(db, trigger.id, fresh.id);
    for (const m of more) await link(db, m.id, fresh.id);
    await link(db, more[0]!.id, existing.id);
    await db.insert(tagNormalizationSuggestions).values({
      topicId: topic.id,
      newTagId: fresh.id,
      existingTagId: existing.id,
      newTagName: 'llms',
      existingTagName: 'llm',
      similarityScore: 0.9312,
      articleId: trigger.id,
    });
    const res = await get(`/admin/tags/suggestions?topic_id=${topic.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 1, limit: 20, offset: 0 });
    const [s] = body.items;
    expect(s).toMatchObject({
      new_tag: { id: fresh.id, name: 'llms', group: null, article_count: 4 },
      existing_tag: { id: existing.id, name: 'llm', group: 'Models', article_count: 1 },
      similarity_score: expect.closeTo(0.9312, 4),
      article_id: trigger.id,
    });
    expect(s.articles).toHaveLength(3);
    expect(s.articles[0]).toEqual({ id: trigger.id, title: 'Scaling laws revisited' });
    expect(s.articles.slice(1).every((x: { title: string }) => x.title.startsWith('More '))).toBe(true);
    expect((await get(`/admin/tags/suggestions?topic_id=${topic.id}&offset=1`)).json()).toMatchObject({
      items: [],
      total: 1,
    });
  });

  it('lists groups without their tags on request, with tag counts', async () => {
    const { topic } = await seedTable();
    const res = await get(`/tag-groups?topic_id=${topic.id}&include_tags=false`);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .map((g: { display_name: string; tags: unknown[]; tag_count: number }) => [
          g.display_name,
          g.tags.length,
          g.tag_count,
        ]),
    ).toEqual([
      ['Photonics', 0, 2],
      ['Quantum', 0, 2],
      ['Ungrouped', 0, 3],
    ]);
    // the default answer is unchanged: tags included, no tag_count
    const full = (await get(`/tag-groups?topic_id=${topic.id}`)).json();
    expect(full.map((g: { tags: unknown[] }) => g.tags.length)).toEqual([2, 2, 3]);
    expect(full.every((g: object) => !('tag_count' in g))).toBe(true);
  });
});
