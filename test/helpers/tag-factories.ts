import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../src/infrastructure/db/client.js';
import { articleTags, tagGroups, tags } from '../../src/infrastructure/db/schema/index.js';

/** Data generators for the tags area, inserted directly through drizzle. */
let seq = 0;

export async function makeGroup(
  db: Db,
  topicId: string,
  overrides: Partial<typeof tagGroups.$inferInsert> = {},
): Promise<typeof tagGroups.$inferSelect> {
  const n = ++seq;
  const [row] = await db
    .insert(tagGroups)
    .values({ topicId, name: `group-${n}`, displayName: `Group ${n}`, sortOrder: n, ...overrides })
    .returning();
  return row!;
}

export async function makeTag(
  db: Db,
  topicId: string,
  name: string,
  tagGroupId: string | null = null,
  overrides: Partial<typeof tags.$inferInsert> = {},
): Promise<typeof tags.$inferSelect> {
  const [row] = await db
    .insert(tags)
    .values({ topicId, name, tagGroupId, ...overrides })
    .returning();
  return row!;
}

/**
 * A topic at scale, in a few SQL statements: `tags` tags named `tag-00001`… (every fifth ungrouped,
 * the others spread over `groups` groups; tag n is n minutes old), `articles` articles, each linked
 * to `linksPerArticle` tags (tag n ↔ article m when n ≡ m modulo tags / linksPerArticle).
 */
export async function seedTagsAtScale(
  db: Db,
  topicId: string,
  opts: { tags: number; articles: number; linksPerArticle: number; groups: number },
): Promise<{ groupIds: string[]; links: number }> {
  const groupIds: string[] = [];
  for (let i = 1; i <= opts.groups; i++) {
    groupIds.push((await makeGroup(db, topicId, { displayName: `Scale Group ${i}`, name: `scale-${i}` })).id);
  }
  const groupArray = sql.raw(`array[${groupIds.map((g) => `'${g}'::uuid`).join(',')}]::uuid[]`);
  await db.execute(sql`
    insert into tags (topic_id, name, tag_group_id, created_at)
    select ${topicId}::uuid, 'tag-' || lpad(i::text, 5, '0'),
           case when i % 5 = 0 or ${opts.groups} = 0 then null
                else (${groupArray})[1 + i % greatest(${opts.groups}, 1)] end,
           now() - make_interval(mins => i)
      from generate_series(1, ${opts.tags}) as i`);
  await db.execute(sql`
    insert into articles (topic_id, source, url, canonical_url, title, normalized_title)
    select ${topicId}::uuid, 'Scale News', 'https://scale.example.test/' || ${topicId} || '/' || i,
           'https://scale.example.test/' || ${topicId} || '/' || i, 'Scale article ' || i, 'scale article ' || i
      from generate_series(1, ${opts.articles}) as i`);
  const modulus = Math.max(1, Math.floor(opts.tags / opts.linksPerArticle));
  await db.execute(sql`
    with a as (select id, row_number() over (order by id) as n from articles where topic_id = ${topicId}),
         t as (select id, row_number() over (order by name) as n from tags where topic_id = ${topicId})
    insert into article_tags (article_id, tag_id)
    select a.id, t.id from a join t on t.n % ${modulus} = a.n % ${modulus}`);
  return { groupIds, links: await linkRows(db, topicId) };
}

export async function link(db: Db, articleId: string, ...tagIds: string[]): Promise<void> {
  await db.insert(articleTags).values(tagIds.map((tagId) => ({ articleId, tagId })));
}

/** Every article-tag link of the given articles, as "article→tag name" strings, sorted. */
export async function linksOf(db: Db, articleIds: string[]): Promise<string[]> {
  const rows = await db
    .select({ a: articleTags.articleId, t: tags.name })
    .from(articleTags)
    .innerJoin(tags, eq(tags.id, articleTags.tagId))
    .where(inArray(articleTags.articleId, articleIds));
  return rows.map((r) => `${r.a}→${r.t}`).sort();
}

/** Number of article-tag link rows of the topic, duplicates included. */
export async function linkRows(db: Db, topicId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(articleTags)
    .innerJoin(tags, eq(tags.id, articleTags.tagId))
    .where(eq(tags.topicId, topicId));
  return r!.n;
}

export async function tagsOfTopic(db: Db, topicId: string) {
  return db.select().from(tags).where(eq(tags.topicId, topicId)).orderBy(tags.name);
}

export async function tagNamed(db: Db, topicId: string, name: string) {
  const [r] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.topicId, topicId), eq(tags.name, name)));
  return r ?? null;
}
