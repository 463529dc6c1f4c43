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
import { tagNormalizationSuggestions, tags } from '../../src/infrastructure/db/schema/index.js';
import type { Db } from '../../src/infrastructure/db/client.js';
import type { ArticleTagger } from '../../src/application/shared/tagging.js';

const NO_ID = '00000000-0000-4000-8000-000000000000';

describe.each(dbKinds())('tags and normalization suggestions (%s)', (kind) => {
  let t: TestApp;
  let db: Db;
  let tagger: ArticleTagger;
  let admin: { id: string; headers: { authorization: string } };

  beforeAll(async () => {
    t = await buildTestApp({ db: kind, env: { TAG_SIMILARITY_THRESHOLD: '0.8' } });
    db = t.container.database.db;
    tagger = t.container.tagger;
    admin = await t.login('admin');
  });
  afterAll(() => t.close());

  const put = (id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/tags/${id}`, headers: admin.headers, payload });
  const pending = (topicId?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/tag-normalization-suggestions${topicId ? `?topic_id=${topicId}` : ''}`,
      headers: admin.headers,
    });
  const resolve = (id: string, action: 'approve' | 'reject', resolvedBy = admin.id) =>
    t.app.inject({
      method: 'POST',
      url: `/tag-normalization-suggestions/${id}/${action}`,
      headers: admin.headers,
      payload: { resolved_by: resolvedBy },
    });

  /** a topic with tag "llm" (in group "Models") on two articles, and a third article tagged "llms" */
  async function withSuggestion() {
    const topic = await makeTopic(db);
    const group = await makeGroup(db, topic.id, { displayName: 'Models' });
    const a1 = await makeArticle(db, { topicId: topic.id });
    const a2 = await makeArticle(db, { topicId: topic.id });
    const a3 = await makeArticle(db, { topicId: topic.id });
    await tagger.tagArticle({ topicId: topic.id, articleId: a1.id, names: ['LLM', 'Agents'] });
    await db.update(tags).set({ tagGroupId: group.id }).where(eq(tags.name, 'llm'));
    const r = await tagger.tagArticle({ topicId: topic.id, articleId: a2.id, names: ['llms', 'llm'] });
    await tagger.tagArticle({ topicId: topic.id, articleId: a3.id, names: ['LLMs'] });
    const list = (await pending(topic.id)).json() as { id: string; new_tag: { name: string } }[];
    const suggestion = list.find((s) => s.new_tag.name === 'llms')!;
    return { topic, group, articles: [a1.id, a2.id, a3.id], r, suggestion };
  }

  it('admin-only writes refuse anonymous callers (401) and users (403)', async () => {
    const user = await t.login('user');
    const calls: [string, string, unknown][] = [
      ['POST', '/tag-groups', { topic_id: NO_ID, name: 'x', display_name: 'X' }],
      ['PUT', `/tag-groups/${NO_ID}`, { name: 'x' }],
      ['DELETE', `/tag-groups/${NO_ID}`, undefined],
      ['POST', '/tag-groups/merge', { source_group_id: NO_ID }],
      ['POST', '/tag-groups/reorder', { groups: [] }],
      ['PUT', `/tags/${NO_ID}`, { name: 'x' }],
      ['DELETE', `/tags/${NO_ID}`, undefined],
      ['POST', '/tags/batch-move', { tag_ids: [NO_ID], tag_group_id: null }],
      ['GET', '/tag-normalization-suggestions', undefined],
      ['POST', `/tag-normalization-suggestions/${NO_ID}/approve`, { resolved_by: NO_ID }],
      ['POST', `/tag-normalization-suggestions/${NO_ID}/reject`, { resolved_by: NO_ID }],
    ];
    for (const [method, url, payload] of calls) {
      const anon = await t.app.inject({ method: method as 'GET', url, payload: payload as object });
      expect(anon.statusCode, `${method} ${url} anonymous`).toBe(401);
      const asUser = await t.app.inject({
        method: method as 'GET',
        url,
        headers: user.headers,
        payload: payload as object,
      });
      expect(asUser.statusCode, `${method} ${url} user`).toBe(403);
    }
    const topic = await makeTopic(db);
    expect((await t.app.inject({ method: 'GET', url: `/tag-groups?topic_id=${topic.id}` })).statusCode).toBe(
      200,
    );
  });

  it('the tagger reuses exact (normalized) names, creates the others with an embedding, and suggests close pairs', async () => {
    const { topic, r, suggestion, articles } = await withSuggestion();
    expect(r.createdTags).toEqual(['llms']);
    expect(r.suggestions).toBe(1);
    const llm = (await tagNamed(db, topic.id, 'llm'))!;
    const llms = (await tagNamed(db, topic.id, 'llms'))!;
    expect(llms.embedding).toHaveLength(384);
    expect(r.tagIds.sort()).toEqual([llm.id, llms.id].sort());
    expect((await tagsOfTopic(db, topic.id)).map((x) => x.name)).toEqual(['agents', 'llm', 'llms']);
    expect(suggestion).toEqual({
      id: expect.any(String),
      new_tag: { id: llms.id, name: 'llms', group: null },
      existing_tag: { id: llm.id, name: 'llm', group: 'Models' },
      similarity_score: expect.any(Number),
      article_id: articles[1],
      created_at: expect.any(String),
    });
    expect(suggestion).toHaveProperty('similarity_score');
    expect((suggestion as unknown as { similarity_score: number }).similarity_score).toBeGreaterThanOrEqual(
      0.8,
    );
    // an unrelated new tag makes no suggestion
    const a = await makeArticle(db, { topicId: topic.id });
    expect(
      (await tagger.tagArticle({ topicId: topic.id, articleId: a.id, names: ['robotics'] })).suggestions,
    ).toBe(0);
  });

  it('approve re-points every article link to the existing tag (no duplicates) and deletes the new tag', async () => {
    const { topic, suggestion, articles } = await withSuggestion();
    const before = await linksOf(db, articles);
    expect(before).toEqual(
      [
        `${articles[0]}→agents`,
        `${articles[0]}→llm`,
        `${articles[1]}→llm`,
        `${articles[1]}→llms`,
        `${articles[2]}→llms`,
      ].sort(),
    );
    const res = await resolve(suggestion.id, 'approve');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: suggestion.id, status: 'approved', resolved_by: admin.id });
    const after = await linksOf(db, articles);
    // every article that had llm or llms now has llm, once
    expect(after).toEqual(
      [`${articles[0]}→agents`, `${articles[0]}→llm`, `${articles[1]}→llm`, `${articles[2]}→llm`].sort(),
    );
    expect(new Set(after).size).toBe(after.length);
    expect(await linkRows(db, topic.id)).toBe(4);
    expect(await tagNamed(db, topic.id, 'llms')).toBeNull();
    const [row] = await db
      .select()
      .from(tagNormalizationSuggestions)
      .where(eq(tagNormalizationSuggestions.id, suggestion.id));
    expect(row).toMatchObject({ status: 'approved', resolvedBy: admin.id });
    expect(row!.resolvedAt).toBeInstanceOf(Date);
    expect(((await pending()).json() as { id: string }[]).map((s) => s.id)).not.toContain(suggestion.id);
    expect((await resolve(suggestion.id, 'approve')).statusCode).toBe(409);

    // the approved merge is remembered: "llms" now lands on "llm"
    const a = await makeArticle(db, { topicId: topic.id });
    const again = await tagger.tagArticle({ topicId: topic.id, articleId: a.id, names: ['LLMs'] });
    expect(again).toEqual({
      tagIds: [(await tagNamed(db, topic.id, 'llm'))!.id],
      createdTags: [],
      suggestions: 0,
    });
  });

  it('an approve that fails at its last step (unknown resolved_by) changes nothing', async () => {
    const { topic, suggestion, articles } = await withSuggestion();
    const linksBefore = await linksOf(db, articles);
    const tagsBefore = await tagsOfTopic(db, topic.id);
    const res = await resolve(suggestion.id, 'approve', NO_ID);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('unknown_user');
    expect(await linksOf(db, articles)).toEqual(linksBefore);
    expect(await tagsOfTopic(db, topic.id)).toEqual(tagsBefore);
    expect(((await pending()).json() as { id: string }[]).map((s) => s.id)).toContain(suggestion.id);
  });

  it('two concurrent approvals: one wins, the other gets 409, links stay whole', async () => {
    const { topic, suggestion, articles } = await withSuggestion();
    const results = await Promise.all([resolve(suggestion.id, 'approve'), resolve(suggestion.id, 'approve')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const after = await linksOf(db, articles);
    expect(after.filter((l) => l.endsWith('→llm'))).toHaveLength(3);
    expect(await linkRows(db, topic.id)).toBe(4);
  });

  it('reject keeps both tags and the pair is never suggested again', async () => {
    const { topic, suggestion } = await withSuggestion();
    const res = await resolve(suggestion.id, 'reject');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'rejected', resolved_by: admin.id });
    expect((await tagsOfTopic(db, topic.id)).map((x) => x.name)).toEqual(['agents', 'llm', 'llms']);
    expect((await resolve(suggestion.id, 'reject')).statusCode).toBe(409);
    expect((await resolve(NO_ID, 'reject')).statusCode).toBe(404);

    // the tag goes away and comes back: the rejected pair is not suggested again
    const llms = (await tagNamed(db, topic.id, 'llms'))!;
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/tags/${llms.id}`, headers: admin.headers })).statusCode,
    ).toBe(204);
    const a = await makeArticle(db, { topicId: topic.id });
    const r = await tagger.tagArticle({ topicId: topic.id, articleId: a.id, names: ['llms', 'agent'] });
    expect(r.createdTags.sort()).toEqual(['agent', 'llms']);
    // "agent" ~ "agents" is a fresh pair: suggested; "llms" ~ "llm" was rejected: not
    expect(r.suggestions).toBe(1);
    const names = ((await pending(topic.id)).json() as { new_tag: { name: string } }[]).map(
      (s) => s.new_tag.name,
    );
    expect(names).toContain('agent');
    expect(names.filter((n) => n === 'llms')).toEqual([]);
  });

  it('PUT /tags renames (embedding regenerated), moves to a group or to ungrouped', async () => {
    const topic = await makeTopic(db);
    const other = await makeTopic(db);
    const g = await makeGroup(db, topic.id);
    const foreign = await makeGroup(db, other.id);
    const tag = await makeTag(db, topic.id, 'nlp');
    await makeTag(db, topic.id, 'taken', g.id);
    const res = await put(tag.id, { name: '  Natural   Language ', tag_group_id: g.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: tag.id,
      name: 'natural language',
      tag_group_id: g.id,
      article_count: 0,
    });
    expect((await tagNamed(db, topic.id, 'natural language'))!.embedding).toHaveLength(384);
    expect((await put(tag.id, { tag_group_id: null })).json().tag_group_id).toBeNull();
    expect((await put(tag.id, { tag_group_id: foreign.id })).statusCode).toBe(422);
    expect((await put(tag.id, { tag_group_id: NO_ID })).statusCode).toBe(404);
    expect((await put(tag.id, { name: 'taken', tag_group_id: g.id })).statusCode).toBe(409);
    expect((await put(NO_ID, { name: 'x' })).statusCode).toBe(404);
  });

  it('DELETE /tags removes the tag and its article links', async () => {
    const topic = await makeTopic(db);
    const tag = await makeTag(db, topic.id, 'gone');
    const keep = await makeTag(db, topic.id, 'kept');
    const a = await makeArticle(db, { topicId: topic.id });
    await link(db, a.id, tag.id, keep.id);
    const res = await t.app.inject({ method: 'DELETE', url: `/tags/${tag.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(204);
    expect(await linksOf(db, [a.id])).toEqual([`${a.id}→kept`]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/tags/${tag.id}`, headers: admin.headers })).statusCode,
    ).toBe(404);
  });

  it('batch-move moves all the tags or none', async () => {
    const topic = await makeTopic(db);
    const g = await makeGroup(db, topic.id);
    const x = await makeTag(db, topic.id, 'x');
    const y = await makeTag(db, topic.id, 'y');
    const move = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/tags/batch-move', headers: admin.headers, payload });
    const bad = await move({ tag_ids: [x.id, NO_ID], tag_group_id: g.id });
    expect(bad.statusCode).toBe(404);
    expect((await tagsOfTopic(db, topic.id)).map((r) => r.tagGroupId)).toEqual([null, null]);
    const ok = await move({ tag_ids: [x.id, y.id], tag_group_id: g.id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ moved: 2 });
    expect((await tagsOfTopic(db, topic.id)).map((r) => r.tagGroupId)).toEqual([g.id, g.id]);
    expect((await move({ tag_ids: [x.id], tag_group_id: null })).json()).toEqual({ moved: 1 });
    expect((await tagNamed(db, topic.id, 'x'))!.tagGroupId).toBeNull();
  });
});
