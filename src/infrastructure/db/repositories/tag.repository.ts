import { and, asc, eq, inArray, isNull, max, ne, or, sql, type SQL } from 'drizzle-orm';
import type {
  GroupInput,
  GroupPatch,
  MergeRecord,
  SuggestionInput,
  TagRepository,
  TagStore,
  TagTableQuery,
} from '../../../application/tags/tags.ports.js';
import type { Embedding, Suggestion, SuggestionStatus, Tag, TagGroup } from '../../../domain/tags.js';
import { rowsOf, type Db } from '../client.js';
import { StatementBatch } from '../statement-batch.js';
import {
  articleTags,
  tagGroups,
  tagNormalizationSuggestions as suggestions,
  tags,
  topics,
} from '../schema/index.js';
import * as table from './tag-table.sql.js';

/** dense vectors go to the real[] column, sparse maps to the jsonb one */
const embeddingColumns = (e: Embedding | null | undefined) =>
  e === undefined
    ? {}
    : Array.isArray(e)
      ? { embedding: e, sparseEmbedding: null }
      : { embedding: null, sparseEmbedding: e };

const embeddingOf = (r: { embedding: number[] | null; sparseEmbedding: Record<string, number> | null }) =>
  r.embedding ?? r.sparseEmbedding ?? null;

const groupOf = (r: typeof tagGroups.$inferSelect): TagGroup => ({
  id: r.id,
  topicId: r.topicId,
  name: r.name,
  displayName: r.displayName,
  description: r.description,
  colorHex: r.colorHex,
  sortOrder: r.sortOrder,
  embedding: embeddingOf(r),
});

const tagColumns = {
  id: tags.id,
  topicId: tags.topicId,
  name: tags.name,
  tagGroupId: tags.tagGroupId,
  articleCount: sql<number>`(select count(*)::int from ${articleTags} where ${articleTags.tagId} = ${tags.id})`,
};

interface SuggestionRow {
  id: string;
  topic_id: string;
  new_tag_id: string | null;
  existing_tag_id: string | null;
  new_tag_name: string;
  existing_tag_name: string;
  new_group: string | null;
  existing_group: string | null;
  similarity_score: number | string;
  article_id: string | null;
  status: SuggestionStatus;
  resolved_by: string | null;
  resolved_at: Date | string | null;
  created_at: Date | string;
}

const suggestionOf = (r: SuggestionRow): Suggestion => ({
  id: r.id,
  topicId: r.topic_id,
  newTag: { id: r.new_tag_id, name: r.new_tag_name, group: r.new_group },
  existingTag: { id: r.existing_tag_id, name: r.existing_tag_name, group: r.existing_group },
  similarityScore: Number(r.similarity_score),
  articleId: r.article_id,
  status: r.status,
  resolvedBy: r.resolved_by,
  resolvedAt: r.resolved_at === null ? null : new Date(r.resolved_at),
  createdAt: new Date(r.created_at),
});

// the current names and groups of both tags (the stored names stay as recorded for deleted tags)
const suggestionSelect = (where: SQL) => sql`
  select s.id, s.topic_id, s.new_tag_id, s.existing_tag_id,
         coalesce(nt.name, s.new_tag_name) as new_tag_name,
         coalesce(et.name, s.existing_tag_name) as existing_tag_name,
         ng.display_name as new_group, eg.display_name as existing_group,
         s.similarity_score, s.article_id, s.status, s.resolved_by, s.resolved_at, s.created_at
    from tag_normalization_suggestions s
    left join tags nt on nt.id = s.new_tag_id
    left join tag_groups ng on ng.id = nt.tag_group_id
    left join tags et on et.id = s.existing_tag_id
    left join tag_groups eg on eg.id = et.tag_group_id
   where ${where}
   order by s.created_at, s.id`;

export class DrizzleTagRepository implements TagRepository {
  constructor(protected readonly db: Db) {}

  async topicExists(topicId: string) {
    return (await this.db.select({ id: topics.id }).from(topics).where(eq(topics.id, topicId))).length > 0;
  }

  async listGroups(topicId: string) {
    const rows = await this.db
      .select()
      .from(tagGroups)
      .where(eq(tagGroups.topicId, topicId))
      .orderBy(asc(tagGroups.sortOrder), asc(tagGroups.displayName), asc(tagGroups.id));
    return rows.map(groupOf);
  }
  async getGroup(id: string) {
    const [r] = await this.db.select().from(tagGroups).where(eq(tagGroups.id, id));
    return r ? groupOf(r) : null;
  }
  async createGroup(input: GroupInput) {
    const { embedding, ...rest } = input;
    const [r] = await this.db
      .insert(tagGroups)
      .values({ ...rest, ...embeddingColumns(embedding) })
      .returning();
    return groupOf(r!);
  }
  async updateGroup(id: string, patch: GroupPatch) {
    const { embedding, ...rest } = patch;
    const [r] = await this.db
      .update(tagGroups)
      .set({ ...rest, ...embeddingColumns(embedding), updatedAt: new Date() })
      .where(eq(tagGroups.id, id))
      .returning();
    return r ? groupOf(r) : null;
  }
  async deleteGroup(id: string) {
    return (
      (await this.db.delete(tagGroups).where(eq(tagGroups.id, id)).returning({ id: tagGroups.id })).length > 0
    );
  }
  async nextSortOrder(topicId: string) {
    const [r] = await this.db
      .select({ m: max(tagGroups.sortOrder) })
      .from(tagGroups)
      .where(eq(tagGroups.topicId, topicId));
    return r?.m === null || r?.m === undefined ? 0 : r.m + 1;
  }
  async setSortOrder(id: string, sortOrder: number) {
    const rows = await this.db
      .update(tagGroups)
      .set({ sortOrder, updatedAt: new Date() })
      .where(eq(tagGroups.id, id))
      .returning({ id: tagGroups.id });
    return rows.length > 0;
  }

  async listTags(filter: { topicId?: string; groupId?: string | null; ids?: string[] }) {
    if (filter.ids && filter.ids.length === 0) return [];
    return this.db
      .select(tagColumns)
      .from(tags)
      .where(
        and(
          filter.topicId ? eq(tags.topicId, filter.topicId) : undefined,
          filter.groupId === null
            ? isNull(tags.tagGroupId)
            : filter.groupId
              ? eq(tags.tagGroupId, filter.groupId)
              : undefined,
          filter.ids ? inArray(tags.id, filter.ids) : undefined,
        ),
      )
      .orderBy(asc(tags.name), asc(tags.id)) as Promise<Tag[]>;
  }
  async getTag(id: string) {
    const [r] = await this.db.select(tagColumns).from(tags).where(eq(tags.id, id));
    return (r as Tag | undefined) ?? null;
  }
  async tagVectors(topicId: string, names?: string[]) {
    if (names && names.length === 0) return [];
    const rows = await this.db
      .select({
        id: tags.id,
        name: tags.name,
        tagGroupId: tags.tagGroupId,
        embedding: tags.embedding,
        sparseEmbedding: tags.sparseEmbedding,
      })
      .from(tags)
      .where(and(eq(tags.topicId, topicId), names ? inArray(tags.name, names) : undefined))
      .orderBy(asc(tags.createdAt), asc(tags.id));
    return rows.map((r) => ({ id: r.id, name: r.name, tagGroupId: r.tagGroupId, embedding: embeddingOf(r) }));
  }
  async tagIds(topicId: string, names: string[]) {
    if (names.length === 0) return [];
    return this.db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(and(eq(tags.topicId, topicId), inArray(tags.name, names)))
      .orderBy(asc(tags.createdAt), asc(tags.id));
  }
  async insertTag(input: { topicId: string; name: string; embedding: Embedding | null }) {
    const [r] = await this.db
      .insert(tags)
      .values({ topicId: input.topicId, name: input.name, ...embeddingColumns(input.embedding) })
      .onConflictDoNothing()
      .returning({ id: tags.id, name: tags.name, tagGroupId: tags.tagGroupId });
    return r ? { ...r, embedding: input.embedding } : null;
  }
  async updateTag(
    id: string,
    patch: { name?: string; tagGroupId?: string | null; embedding?: Embedding | null },
  ) {
    const { embedding, ...rest } = patch;
    const rows = await this.db
      .update(tags)
      .set({ ...rest, ...embeddingColumns(embedding), updatedAt: new Date() })
      .where(eq(tags.id, id))
      .returning({ id: tags.id });
    return rows.length ? this.getTag(id) : null;
  }
  async moveTags(ids: string[], groupId: string | null) {
    if (ids.length === 0) return 0;
    const rows = await this.db
      .update(tags)
      .set({ tagGroupId: groupId, updatedAt: new Date() })
      .where(inArray(tags.id, ids))
      .returning({ id: tags.id });
    return rows.length;
  }
  tagTable(query: TagTableQuery) {
    return table.tagTable(this.db, query);
  }
  tagCountsByGroup(topicId: string) {
    return table.tagCountsByGroup(this.db, topicId);
  }
  tagRows(ids: string[]) {
    return table.tagRows(this.db, ids);
  }
  lockTags(ids: string[]) {
    return table.lockTags(this.db, ids);
  }
  mergeStats(sourceIds: string[], targetId: string) {
    return table.mergeStats(this.db, sourceIds, targetId);
  }
  copyLinks(sourceIds: string[], targetId: string) {
    return table.copyLinks(this.db, sourceIds, targetId);
  }
  recordMerges(records: MergeRecord[]) {
    return table.recordMerges(this.db, records);
  }
  mergedInto(sourceIds: string[]) {
    return table.mergedInto(this.db, sourceIds);
  }
  articlesOfTags(tagIds: string[], perTag: number) {
    return table.articlesOfTags(this.db, tagIds, perTag);
  }
  articleRefs(ids: string[]) {
    return table.articleRefs(this.db, ids);
  }
  async deleteTags(ids: string[]) {
    if (ids.length === 0) return 0;
    return (await this.db.delete(tags).where(inArray(tags.id, ids)).returning({ id: tags.id })).length;
  }

  async unlinkArticle(articleId: string, tagIds: string[]) {
    if (tagIds.length === 0) return;
    await this.db
      .delete(articleTags)
      .where(and(eq(articleTags.articleId, articleId), inArray(articleTags.tagId, tagIds)));
  }

  async linkArticle(articleId: string, tagIds: string[]) {
    if (tagIds.length === 0) return;
    await this.db
      .insert(articleTags)
      .values(tagIds.map((tagId) => ({ articleId, tagId })))
      .onConflictDoNothing();
  }
  async moveLinks(fromTagId: string, toTagId: string) {
    await this.db.execute(sql`
      insert into article_tags (article_id, tag_id, created_at)
      select article_id, ${toTagId}, created_at from article_tags where tag_id = ${fromTagId}
      on conflict do nothing`);
    await this.db.delete(articleTags).where(eq(articleTags.tagId, fromTagId));
  }
  async countLinks(tagIds: string[]) {
    if (tagIds.length === 0) return 0;
    const [r] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(articleTags)
      .where(inArray(articleTags.tagId, tagIds));
    return r?.n ?? 0;
  }

  async listSuggestions(status: SuggestionStatus, topicId?: string) {
    const byStatus =
      status === 'pending'
        ? sql`s.status = 'pending' and s.new_tag_id is not null and s.existing_tag_id is not null`
        : sql`s.status = ${status}`;
    const where = topicId ? sql`${byStatus} and s.topic_id = ${topicId}` : byStatus;
    return rowsOf<SuggestionRow>(await this.db.execute(suggestionSelect(where))).map(suggestionOf);
  }
  async lockSuggestion(id: string) {
    const locked = await this.db.execute(
      sql`select id from tag_normalization_suggestions where id = ${id} for update`,
    );
    if (rowsOf(locked).length === 0) return null;
    const [r] = rowsOf<SuggestionRow>(await this.db.execute(suggestionSelect(sql`s.id = ${id}`)));
    return r ? suggestionOf(r) : null;
  }
  async resolveSuggestion(id: string, status: 'approved' | 'rejected', resolvedBy: string, at: Date) {
    await this.db
      .update(suggestions)
      .set({ status, resolvedBy, resolvedAt: at })
      .where(eq(suggestions.id, id));
  }
  async dropPendingSuggestionsFor(tagIds: string[], exceptId?: string) {
    if (tagIds.length === 0) return;
    await this.db
      .delete(suggestions)
      .where(
        and(
          eq(suggestions.status, 'pending'),
          or(inArray(suggestions.newTagId, tagIds), inArray(suggestions.existingTagId, tagIds)),
          exceptId ? ne(suggestions.id, exceptId) : undefined,
        ),
      );
  }
  async insertSuggestion(input: SuggestionInput) {
    const rows = await this.db
      .insert(suggestions)
      .values({ ...input, status: 'pending' })
      .onConflictDoNothing()
      .returning({ id: suggestions.id });
    return rows.length > 0;
  }
  async suggestionPairs(topicId: string, names: string[]) {
    if (names.length === 0) return [];
    const rows = await this.db
      .select({ a: suggestions.newTagName, b: suggestions.existingTagName })
      .from(suggestions)
      .where(
        and(
          eq(suggestions.topicId, topicId),
          or(inArray(suggestions.newTagName, names), inArray(suggestions.existingTagName, names)),
        ),
      );
    return rows.map((r) => [r.a, r.b] as [string, string]);
  }
  async approvedAliases(topicId: string, names: string[]) {
    const out = new Map<string, string>();
    if (names.length === 0) return out;
    const rows = await this.db
      .select({ name: suggestions.newTagName, tagId: tags.id })
      .from(suggestions)
      .innerJoin(tags, eq(tags.id, suggestions.existingTagId))
      .where(
        and(
          eq(suggestions.topicId, topicId),
          eq(suggestions.status, 'approved'),
          inArray(suggestions.newTagName, names),
        ),
      )
      .orderBy(asc(suggestions.resolvedAt));
    for (const r of rows) if (!out.has(r.name)) out.set(r.name, r.tagId);
    // an admin's tag merge counts as well (a suggestion's resolution wins when both exist)
    const merged = await table.mergeAliases(
      this.db,
      topicId,
      names.filter((n) => !out.has(n)),
    );
    for (const [name, tagId] of merged) out.set(name, tagId);
    return out;
  }
}

/**
 * The tag store outside transactions. The two calls every analysed article makes (its tags' ids by
 * name, then its links) are joined across the pipeline's flows in flight (StatementBatch): one
 * statement for a batch of articles instead of two per article.
 */
export class DrizzleTagStore extends DrizzleTagRepository implements TagStore {
  private readonly lookups = new StatementBatch<{ topicId: string; names: string[] }, TagIdRow[]>(
    (items) => this.tagIdsOfMany(items),
    (item) => super.tagIds(item.topicId, item.names),
  );
  private readonly links = new StatementBatch<{ articleId: string; tagIds: string[] }, void>(
    async (items) => {
      await this.insertLinks(
        items.flatMap((i) => i.tagIds.map((tagId) => ({ articleId: i.articleId, tagId }))),
      );
      return items.map(() => undefined);
    },
    (item) => super.linkArticle(item.articleId, item.tagIds),
  );

  transaction<T>(fn: (repo: TagRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new DrizzleTagRepository(tx as unknown as Db)));
  }

  override tagIds(topicId: string, names: string[]): Promise<TagIdRow[]> {
    return names.length ? this.lookups.run({ topicId, names }) : Promise.resolve([]);
  }

  override async linkArticle(articleId: string, tagIds: string[]): Promise<void> {
    if (tagIds.length) await this.links.run({ articleId, tagIds });
  }

  /** the tags of several (topic, names) lookups in one statement, each answered in tagIds' order */
  private async tagIdsOfMany(items: { topicId: string; names: string[] }[]): Promise<TagIdRow[][]> {
    const pairs = items.flatMap((i) => i.names.map((name) => [i.topicId, name] as const));
    const rows = rowsOf<TagIdRow & { topicId: string }>(
      await this.db.execute(sql`
        select t.id::text as id, t.name, t.topic_id::text as "topicId" from ${tags} t
        where (t.topic_id, t.name) in (
          select * from unnest(${sql.param(pairs.map(([t]) => t))}::uuid[], ${sql.param(pairs.map(([, n]) => n))}::text[]))
        order by t.created_at, t.id`),
    );
    return items.map((i) => {
      const wanted = new Set(i.names);
      return rows
        .filter((r) => r.topicId === i.topicId && wanted.has(r.name))
        .map((r) => ({ id: r.id, name: r.name }));
    });
  }

  private async insertLinks(rows: { articleId: string; tagId: string }[]): Promise<void> {
    await this.db.insert(articleTags).values(rows).onConflictDoNothing();
  }
}

interface TagIdRow {
  id: string;
  name: string;
}
