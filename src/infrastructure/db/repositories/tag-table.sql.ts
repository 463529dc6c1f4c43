import { sql, type SQL } from 'drizzle-orm';
import type {
  ArticleRef,
  MergeRecord,
  MergeStats,
  TagTableQuery,
  TagTableRow,
} from '../../../application/tags/tags.ports.js';
import { rowsOf, type Db } from '../client.js';

/**
 * The admin tags table and bulk merges, in SQL. The table pages through `tags` by an index
 * ((topic_id, name), (topic_id, created_at, id), the trigram index for `q`) and counts the links of
 * the page's tags only (article_tags_tag_idx); the article-count sort needs every tag's count and
 * takes it from one aggregate over the topic's links (docs/decisions/0071-tag-curation-at-scale.md).
 */

interface Row {
  id: string;
  topic_id: string;
  name: string;
  tag_group_id: string | null;
  group_name: string | null;
  group_color: string | null;
  created_at: Date | string;
  article_count: number | string;
}

const rowOf = (r: Row): TagTableRow => ({
  id: r.id,
  topicId: r.topic_id,
  name: r.name,
  tagGroupId: r.tag_group_id,
  groupName: r.group_name,
  groupColor: r.group_color,
  createdAt: new Date(r.created_at),
  articleCount: Number(r.article_count),
});

const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** LIKE's own characters in the query are literal */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const countOf = sql`(select count(*)::int from article_tags a where a.tag_id = t.id)`;

function whereOf(q: TagTableQuery): SQL {
  const parts: SQL[] = [sql`true`];
  if (q.topicId) parts.push(sql`t.topic_id = ${q.topicId}`);
  if (q.groupId === null) parts.push(sql`t.tag_group_id is null`);
  else if (q.groupId) parts.push(sql`t.tag_group_id = ${q.groupId}`);
  if (q.q) parts.push(sql`t.name ilike ${likePattern(q.q)}`);
  return sql.join(parts, sql` and `);
}

/** ORDER BY of a sort key over the columns of `b` (a row of the table); ties by name then id */
function orderOf(q: TagTableQuery, b: string): SQL {
  const dir = sql.raw(q.order === 'desc' ? 'desc' : 'asc');
  const c = (col: string) => sql.raw(`${b}.${col}`);
  switch (q.sort) {
    case 'group':
      // the Ungrouped tags last in both directions, as a table of groups reads best
      return sql`${c('group_name')} ${dir} nulls last, ${c('name')} asc, ${c('id')} asc`;
    case 'article_count':
      return sql`${c('article_count')} ${dir}, ${c('name')} asc, ${c('id')} asc`;
    case 'created_at':
      return sql`${c('created_at')} ${dir}, ${c('id')} ${dir}`;
    default:
      return sql`${c('name')} ${dir}, ${c('id')} ${dir}`;
  }
}

/**
 * The link count of every tag of the topic in one pass (a hash aggregate over the topic's links),
 * for the article-count sort: cheaper than one count per matching tag once there are thousands.
 */
const linkCounts = (q: TagTableQuery) => sql`
  left join (select a.tag_id, count(*)::int as n
               from article_tags a
               ${q.topicId ? sql`join tags ct on ct.id = a.tag_id and ct.topic_id = ${q.topicId}` : sql``}
              group by a.tag_id) c on c.tag_id = t.id`;

export async function tagTable(db: Db, q: TagTableQuery): Promise<{ rows: TagTableRow[]; total: number }> {
  const where = whereOf(q);
  const [counted] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*)::int as n from tags t where ${where}`),
  );
  const total = Number(counted?.n ?? 0);
  if (total === 0 || q.offset >= total) return { rows: [], total };
  // the page first (only an article-count sort needs every matching tag's count), then its counts;
  // the inner select is flattened by the planner, so a name or date sort walks its index and stops
  const byCount = q.sort === 'article_count';
  const rows = rowsOf<Row>(
    await db.execute(sql`
      with page as (
        select b.* from (
          select t.id, t.topic_id, t.name, t.tag_group_id, t.created_at,
                 g.display_name as group_name, g.color_hex as group_color,
                 ${byCount ? sql`coalesce(c.n, 0)` : sql`null::int`} as article_count
            from tags t left join tag_groups g on g.id = t.tag_group_id
            ${byCount ? linkCounts(q) : sql``}
           where ${where}) b
         order by ${orderOf(q, 'b')}
         limit ${q.limit} offset ${q.offset})
      select p.id, p.topic_id, p.name, p.tag_group_id, p.created_at, p.group_name, p.group_color,
             ${byCount ? sql`p.article_count` : sql`(select count(*)::int from article_tags a where a.tag_id = p.id)`} as article_count
        from page p
       order by ${orderOf(q, 'p')}`),
  );
  return { rows: rows.map(rowOf), total };
}

export async function tagRows(db: Db, ids: string[]): Promise<TagTableRow[]> {
  if (ids.length === 0) return [];
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select t.id, t.topic_id, t.name, t.tag_group_id, t.created_at,
             g.display_name as group_name, g.color_hex as group_color, ${countOf} as article_count
        from tags t left join tag_groups g on g.id = t.tag_group_id
       where t.id in (${idList(ids)})
       order by t.name, t.id`),
  );
  return rows.map(rowOf);
}

export async function tagCountsByGroup(db: Db, topicId: string): Promise<Map<string | null, number>> {
  const rows = rowsOf<{ tag_group_id: string | null; n: number | string }>(
    await db.execute(
      sql`select tag_group_id, count(*)::int as n from tags where topic_id = ${topicId} group by tag_group_id`,
    ),
  );
  return new Map(rows.map((r) => [r.tag_group_id, Number(r.n)]));
}

export async function lockTags(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`select id from tags where id in (${idList(ids)}) order by id for update`);
}

export async function mergeStats(db: Db, sourceIds: string[], targetId: string): Promise<MergeStats> {
  if (sourceIds.length === 0) return { sourceLinks: 0, moved: 0 };
  const [r] = rowsOf<{ links: number | string; moved: number | string }>(
    await db.execute(sql`
      select count(*)::int as links,
             count(distinct a.article_id) filter (
               where not exists (select 1 from article_tags x
                                  where x.tag_id = ${targetId} and x.article_id = a.article_id))::int as moved
        from article_tags a
       where a.tag_id in (${idList(sourceIds)})`),
  );
  return { sourceLinks: Number(r?.links ?? 0), moved: Number(r?.moved ?? 0) };
}

export async function copyLinks(db: Db, sourceIds: string[], targetId: string): Promise<void> {
  if (sourceIds.length === 0) return;
  await db.execute(sql`
    insert into article_tags (article_id, tag_id, created_at)
    select article_id, ${targetId}::uuid, min(created_at) from article_tags
     where tag_id in (${idList(sourceIds)})
     group by article_id
    on conflict do nothing`);
}

export async function recordMerges(db: Db, records: MergeRecord[]): Promise<void> {
  if (records.length === 0) return;
  const byTarget = new Map<string, string[]>();
  for (const r of records)
    byTarget.set(r.targetTagId, [...(byTarget.get(r.targetTagId) ?? []), r.sourceTagId]);
  // names merged into a source before now lead to the new target (they would vanish with the source)
  for (const [target, sources] of byTarget) {
    await db.execute(
      sql`update tag_merges set target_tag_id = ${target} where target_tag_id in (${idList(sources)})`,
    );
  }
  const values = sql.join(
    records.map(
      (r) =>
        sql`(${r.sourceTagId}::uuid, ${r.topicId}::uuid, ${r.sourceName}, ${r.targetTagId}::uuid, ${r.mergedBy}::uuid)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    insert into tag_merges (source_tag_id, topic_id, source_name, target_tag_id, merged_by)
    values ${values}
    on conflict (source_tag_id) do nothing`);
}

export async function mergedInto(db: Db, sourceIds: string[]): Promise<Map<string, string>> {
  if (sourceIds.length === 0) return new Map();
  const rows = rowsOf<{ source_tag_id: string; target_tag_id: string }>(
    await db.execute(
      sql`select source_tag_id, target_tag_id from tag_merges where source_tag_id in (${idList(sourceIds)})`,
    ),
  );
  return new Map(rows.map((r) => [r.source_tag_id, r.target_tag_id]));
}

/** admin tag merges as aliases: merged name → the target tag */
export async function mergeAliases(db: Db, topicId: string, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = rowsOf<{ source_name: string; target_tag_id: string }>(
    await db.execute(sql`
      select source_name, target_tag_id from tag_merges
       where topic_id = ${topicId}
         and source_name in (${sql.join(
           names.map((n) => sql`${n}`),
           sql`, `,
         )})
       order by merged_at desc`),
  );
  const out = new Map<string, string>();
  for (const r of rows) if (!out.has(r.source_name)) out.set(r.source_name, r.target_tag_id);
  return out;
}

export async function articlesOfTags(
  db: Db,
  tagIds: string[],
  perTag: number,
): Promise<Map<string, ArticleRef[]>> {
  const out = new Map<string, ArticleRef[]>();
  if (tagIds.length === 0) return out;
  const rows = rowsOf<{ tag_id: string; id: string; title: string }>(
    await db.execute(sql`
      select t.id as tag_id, x.id, x.title
        from tags t
        cross join lateral (
          select ar.id, ar.title from article_tags a join articles ar on ar.id = a.article_id
           where a.tag_id = t.id
           order by a.created_at desc, ar.id
           limit ${perTag}) x
       where t.id in (${idList(tagIds)})`),
  );
  for (const r of rows) out.set(r.tag_id, [...(out.get(r.tag_id) ?? []), { id: r.id, title: r.title }]);
  return out;
}

export async function articleRefs(db: Db, ids: string[]): Promise<ArticleRef[]> {
  if (ids.length === 0) return [];
  return rowsOf<ArticleRef>(
    await db.execute(sql`select id, title from articles where id in (${idList(ids)})`),
  );
}
