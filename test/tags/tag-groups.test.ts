import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import {
  link,
  linkRows,
  linksOf,
  makeGroup,
  makeTag,
  tagNamed,
  tagsOfTopic,
} from '../helpers/tag-factories.js';
import { tagGroups } from '../../src/infrastructure/db/schema/index.js';
import type { Db } from '../../src/infrastructure/db/client.js';

describe.each(dbKinds())('tag groups (%s)', (kind) => {
  let t: TestApp;
  let db: Db;
  let admin: { id: string; headers: { authorization: string } };

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    db = t.container.database.db;
    admin = await t.login('admin');
  });
  afterAll(() => t.close());

  const create = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/tag-groups', headers: admin.headers, payload: body });
  const list = (topicId: string, similar = false) =>
    t.app.inject({
      method: 'GET',
      url: `/tag-groups?topic_id=${topicId}${similar ? '&include_similar=true' : ''}`,
    });

  it('creates a group: name slugified, display_name title-cased, embedding stored; 409 in the same topic', async () => {
    const topic = await makeTopic(db);
    const res = await create({
      topic_id: topic.id,
      name: 'Machine Learning!',
      display_name: 'machine   learning',
      description: 'ML papers',
      color_hex: '#1A2b3c',
    });
    expect(res.statusCode).toBe(201);
    const g = res.json();
    expect(g).toMatchObject({
      topic_id: topic.id,
      name: 'machine-learning',
      display_name: 'Machine Learning',
      description: 'ML papers',
      color_hex: '#1A2b3c',
      tags: [],
    });
    const [row] = await db.select().from(tagGroups).where(eq(tagGroups.id, g.id));
    expect(row!.embedding).toHaveLength(384);

    const again = await create({ topic_id: topic.id, name: 'machine learning', display_name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('tag_group_name_taken');
    const otherTopic = await makeTopic(db);
    expect(
      (await create({ topic_id: otherTopic.id, name: 'machine learning', display_name: 'ML' })).statusCode,
    ).toBe(201);
  });

  it('refuses a color that is not 7-character hex, and an unknown topic', async () => {
    const topic = await makeTopic(db);
    for (const color_hex of ['#12345', '123456', '#12345g', '#1234567', 'red']) {
      const res = await create({ topic_id: topic.id, name: 'x', display_name: 'X', color_hex });
      expect(res.statusCode, color_hex).toBe(422);
    }
    const res = await create({
      topic_id: '00000000-0000-4000-8000-000000000000',
      name: 'x',
      display_name: 'X',
    });
    expect(res.statusCode).toBe(404);
  });

  it('lists groups with their tags and the virtual Ungrouped group (id null) last', async () => {
    const topic = await makeTopic(db);
    const g = await makeGroup(db, topic.id, { name: 'vision', displayName: 'Vision', sortOrder: 0 });
    await makeTag(db, topic.id, 'segmentation', g.id);
    await makeTag(db, topic.id, 'misc');
    const article = await makeArticle(db, { topicId: topic.id });
    await link(db, article.id, (await tagNamed(db, topic.id, 'misc'))!.id);

    const res = await list(topic.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((x: { id: string | null }) => x.id)).toEqual([g.id, null]);
    expect(body[0].tags).toEqual([
      { id: expect.any(String), name: 'segmentation', tag_group_id: g.id, article_count: 0 },
    ]);
    expect(body[1]).toMatchObject({
      id: null,
      name: 'ungrouped',
      display_name: 'Ungrouped',
      topic_id: topic.id,
    });
    expect(body[1].tags).toEqual([
      { id: expect.any(String), name: 'misc', tag_group_id: null, article_count: 1 },
    ]);
    expect(body[0].similar_groups).toBeUndefined();

    const one = await t.app.inject({ method: 'GET', url: `/tag-groups/${g.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json().tags.map((x: { name: string }) => x.name)).toEqual(['segmentation']);
    expect((await t.app.inject({ method: 'GET', url: `/tag-groups/${topic.id}` })).statusCode).toBe(404);
    expect((await list('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('include_similar lists near-identical groups (cosine >= 0.90) and not unrelated ones', async () => {
    const topic = await makeTopic(db);
    const a = (
      await create({ topic_id: topic.id, name: 'llm', display_name: 'Large Language Models' })
    ).json();
    const b = (
      await create({ topic_id: topic.id, name: 'llm-2', display_name: 'Large Language Model' })
    ).json();
    const c = (await create({ topic_id: topic.id, name: 'robotics', display_name: 'Robotics' })).json();
    const body = (await list(topic.id, true)).json() as {
      id: string | null;
      similar_groups?: { id: string; similarity: number }[];
    }[];
    const byId = new Map(body.map((g) => [g.id, g]));
    expect(byId.get(a.id)!.similar_groups!.map((s) => s.id)).toEqual([b.id]);
    expect(byId.get(a.id)!.similar_groups![0]!.similarity).toBeGreaterThanOrEqual(0.9);
    expect(byId.get(b.id)!.similar_groups!.map((s) => s.id)).toEqual([a.id]);
    expect(byId.get(c.id)!.similar_groups).toEqual([]);
  });

  it('updates a group: rename regenerates the embedding, 409 on a name of another group', async () => {
    const topic = await makeTopic(db);
    const g = (
      await create({ topic_id: topic.id, name: 'nlp', display_name: 'NLP', color_hex: '#000000' })
    ).json();
    await create({ topic_id: topic.id, name: 'vision', display_name: 'Vision' });
    const before = (await db.select().from(tagGroups).where(eq(tagGroups.id, g.id)))[0]!.embedding;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/tag-groups/${g.id}`,
      headers: admin.headers,
      payload: { name: 'Natural Language', display_name: 'natural language processing', color_hex: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'natural-language',
      display_name: 'Natural Language Processing',
      color_hex: null,
      description: null,
    });
    const after = (await db.select().from(tagGroups).where(eq(tagGroups.id, g.id)))[0]!.embedding;
    expect(after).not.toEqual(before);

    const clash = await t.app.inject({
      method: 'PUT',
      url: `/tag-groups/${g.id}`,
      headers: admin.headers,
      payload: { name: 'vision' },
    });
    expect(clash.statusCode).toBe(409);
    const bad = await t.app.inject({
      method: 'PUT',
      url: `/tag-groups/${g.id}`,
      headers: admin.headers,
      payload: { color_hex: '#abc' },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('delete: the tags become ungrouped, an ungrouped twin absorbs its namesake', async () => {
    const topic = await makeTopic(db);
    const g = await makeGroup(db, topic.id);
    const keep = await makeTag(db, topic.id, 'keep-me', g.id);
    const twinInGroup = await makeTag(db, topic.id, 'twin', g.id);
    const twinUngrouped = await makeTag(db, topic.id, 'twin');
    const a1 = await makeArticle(db, { topicId: topic.id });
    const a2 = await makeArticle(db, { topicId: topic.id });
    await link(db, a1.id, keep.id, twinInGroup.id, twinUngrouped.id);
    await link(db, a2.id, twinInGroup.id);

    const res = await t.app.inject({ method: 'DELETE', url: `/tag-groups/${g.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(204);
    const left = await tagsOfTopic(db, topic.id);
    expect(left.map((x) => [x.name, x.tagGroupId])).toEqual([
      ['keep-me', null],
      ['twin', null],
    ]);
    expect(await linksOf(db, [a1.id, a2.id])).toEqual(
      [`${a1.id}→keep-me`, `${a1.id}→twin`, `${a2.id}→twin`].sort(),
    );
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/tag-groups/${g.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('merge into a target keeps every article link, de-duplicates same-name tags, deletes the source', async () => {
    const topic = await makeTopic(db);
    const src = await makeGroup(db, topic.id, { name: 'deep-learning', displayName: 'Deep Learning' });
    const dst = await makeGroup(db, topic.id, { name: 'neural-nets', displayName: 'Neural Nets' });
    const sTwin = await makeTag(db, topic.id, 'transformers', src.id);
    const sOnly = await makeTag(db, topic.id, 'diffusion', src.id);
    const dTwin = await makeTag(db, topic.id, 'transformers', dst.id);
    const dOnly = await makeTag(db, topic.id, 'cnn', dst.id);
    const arts = await Promise.all([1, 2, 3].map(() => makeArticle(db, { topicId: topic.id })));
    const [a1, a2, a3] = arts.map((a) => a.id) as [string, string, string];
    await link(db, a1, sTwin.id, dTwin.id); // both twins: must collapse into one link
    await link(db, a2, sTwin.id, sOnly.id);
    await link(db, a3, dTwin.id, dOnly.id);
    const before = await linksOf(db, [a1, a2, a3]);
    const distinctBefore = [...new Set(before)];
    expect(before.length).toBe(6);

    const res = await t.app.inject({
      method: 'POST',
      url: '/tag-groups/merge',
      headers: admin.headers,
      payload: {
        source_group_id: src.id,
        target_group_id: dst.id,
        result_display_name: 'neural networks',
        result_color: '#00ff00',
      },
    });
    expect(res.statusCode).toBe(200);
    const merged = res.json();
    expect(merged).toMatchObject({
      id: dst.id,
      name: 'neural-nets',
      display_name: 'Neural Networks',
      color_hex: '#00ff00',
    });
    expect(
      merged.tags.map((x: { name: string; article_count: number }) => [x.name, x.article_count]),
    ).toEqual([
      ['cnn', 1],
      ['diffusion', 1],
      ['transformers', 3],
    ]);
    const after = await linksOf(db, [a1, a2, a3]);
    // every article keeps every tag name it had, and no link is duplicated
    expect(after).toEqual(distinctBefore);
    expect(new Set(after).size).toBe(after.length);
    expect(await linkRows(db, topic.id)).toBe(5);
    expect(await db.select().from(tagGroups).where(eq(tagGroups.id, src.id))).toEqual([]);
  });

  it('merge without a target creates a new group (it may take the source name)', async () => {
    const topic = await makeTopic(db);
    const src = await makeGroup(db, topic.id, { name: 'robots', displayName: 'Robots', colorHex: '#111111' });
    const tag = await makeTag(db, topic.id, 'grasping', src.id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/tag-groups/merge',
      headers: admin.headers,
      payload: { source_group_id: src.id },
    });
    expect(res.statusCode).toBe(200);
    const g = res.json();
    expect(g.id).not.toBe(src.id);
    expect(g).toMatchObject({ name: 'robots', display_name: 'Robots', color_hex: '#111111' });
    expect(g.tags.map((x: { id: string }) => x.id)).toEqual([tag.id]);
    const [row] = await db.select().from(tagGroups).where(eq(tagGroups.id, g.id));
    expect(row!.embedding).toHaveLength(384);
  });

  it('a merge that fails at its last step (name conflict) leaves everything unchanged', async () => {
    const topic = await makeTopic(db);
    const src = await makeGroup(db, topic.id);
    const dst = await makeGroup(db, topic.id);
    const third = await makeGroup(db, topic.id, { name: 'taken' });
    const sTwin = await makeTag(db, topic.id, 'twin', src.id);
    const dTwin = await makeTag(db, topic.id, 'twin', dst.id);
    const sOnly = await makeTag(db, topic.id, 'only', src.id);
    const a = await makeArticle(db, { topicId: topic.id });
    await link(db, a.id, sTwin.id, dTwin.id, sOnly.id);
    const tagsBefore = await tagsOfTopic(db, topic.id);
    const rowsBefore = await linkRows(db, topic.id);

    const res = await t.app.inject({
      method: 'POST',
      url: '/tag-groups/merge',
      headers: admin.headers,
      payload: { source_group_id: src.id, target_group_id: dst.id, result_name: 'Taken' },
    });
    expect(res.statusCode).toBe(409);
    expect(await tagsOfTopic(db, topic.id)).toEqual(tagsBefore);
    expect(await linkRows(db, topic.id)).toBe(rowsBefore);
    const groups = await db.select().from(tagGroups).where(eq(tagGroups.topicId, topic.id));
    expect(groups.map((g) => g.id).sort()).toEqual([src.id, dst.id, third.id].sort());
  });

  it('merge refuses unknown groups, the same group and groups of different topics', async () => {
    const topic = await makeTopic(db);
    const other = await makeTopic(db);
    const g = await makeGroup(db, topic.id);
    const h = await makeGroup(db, other.id);
    const merge = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/tag-groups/merge', headers: admin.headers, payload });
    expect((await merge({ source_group_id: g.id, target_group_id: g.id })).statusCode).toBe(422);
    expect((await merge({ source_group_id: g.id, target_group_id: h.id })).statusCode).toBe(422);
    expect((await merge({ source_group_id: other.id })).statusCode).toBe(404);
    expect((await merge({ source_group_id: g.id, result_color: 'blue' })).statusCode).toBe(422);
  });

  it('reorder sets sort_order; an unknown id changes nothing', async () => {
    const topic = await makeTopic(db);
    const a = await makeGroup(db, topic.id, { sortOrder: 0 });
    const b = await makeGroup(db, topic.id, { sortOrder: 1 });
    const reorder = (groups: { id: string; sort_order: number }[]) =>
      t.app.inject({
        method: 'POST',
        url: '/tag-groups/reorder',
        headers: admin.headers,
        payload: { groups },
      });
    const res = await reorder([
      { id: a.id, sort_order: 5 },
      { id: b.id, sort_order: 2 },
    ]);
    expect(res.statusCode).toBe(200);
    const order = () => list(topic.id).then((r) => r.json().map((g: { id: string | null }) => g.id));
    expect(await order()).toEqual([b.id, a.id, null]);
    const bad = await reorder([
      { id: a.id, sort_order: 0 },
      { id: '00000000-0000-4000-8000-000000000000', sort_order: 1 },
    ]);
    expect(bad.statusCode).toBe(404);
    expect(await order()).toEqual([b.id, a.id, null]);
  });
});
