import { eq, sql } from 'drizzle-orm';
import { type Db, articleTags, tagGroups, tags } from '../../src/composition/bench-entry.js';

/**
 * A topic at scale, in a few SQL statements over the public schema: `groups` tag groups, `tags`
 * tags named `tag-00001`… (every fifth ungrouped, the others spread over the groups; tag n is n
 * minutes old), `articles` articles, each linked to `linksPerArticle` tags (tag n ↔ article m when
 * n ≡ m modulo tags / linksPerArticle). Returns the groups' ids and the number of link rows.
 */
export async function seedTagsAtScale(
  db: Db,
  topicId: string,
  opts: { tags: number; articles: number; linksPerArticle: number; groups: number },
): Promise<{ groupIds: string[]; links: number }> {
  const groupIds: string[] = [];
  for (let i = 1; i <= opts.groups; i++) {
    const [row] = await db
      .insert(tagGroups)
      .values({ topicId, name: `scale-${i}`, displayName: `Scale Group ${i}`, sortOrder: i })
      .returning({ id: tagGroups.id });
    groupIds.push(row!.id);
  }
  const groupArray = sql`${`{${groupIds.join(',')}}`}::uuid[]`;
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
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(articleTags)
    .innerJoin(tags, eq(tags.id, articleTags.tagId))
    .where(eq(tags.topicId, topicId));
  return { groupIds, links: r!.n };
}
