import { AppError, invalid, notFound, conflict } from '../../domain/errors.js';
import { normalizeTagName } from '../../domain/tags.js';
import type { TagRepository, TagSort, TagStore, TagTableRow } from './tags.ports.js';
import { suggestionOut } from './tags.out.js';
import {
  tagRowOut,
  type MergeOut,
  type MoveMergeOut,
  type MoveOut,
  type SuggestionPageOut,
  type TagPageOut,
} from './tag-curation.out.js';
import { isUniqueViolation } from './tags.errors.js';

export interface TagTableInput {
  topic_id?: string;
  q?: string;
  /** a group id, or `ungrouped` */
  group_id?: string;
  sort?: TagSort;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/** articles shown with a suggestion: the one that raised it and a few more of the new tag */
const ARTICLES_PER_SUGGESTION = 3;

const unknownTags = (ids: string[], path: string) =>
  new AppError(
    'NotFound',
    'tag_not_found',
    ids.length === 1 ? 'tag not found' : `${ids.length} tags not found`,
    ids.map((id) => ({ path, message: `unknown tag ${id}` })),
  );

/**
 * Tag curation at scale: the paged, searchable tags table, bulk merge and bulk move (each with a
 * dry run that tells what would change), and the suggestions with the articles behind them.
 * Writes are one transaction each and idempotent: a repeated merge or move finds its work done.
 */
export class TagCurationService {
  constructor(private readonly store: TagStore) {}

  async table(input: TagTableInput): Promise<TagPageOut> {
    if (input.topic_id && !(await this.store.topicExists(input.topic_id))) throw notFound('topic');
    const limit = input.limit ?? 50;
    const offset = input.offset ?? 0;
    const q = input.q === undefined ? '' : normalizeTagName(input.q);
    const { rows, total } = await this.store.tagTable({
      topicId: input.topic_id,
      q: q || undefined,
      groupId: input.group_id === 'ungrouped' ? null : input.group_id,
      sort: input.sort ?? 'name',
      order: input.order ?? (input.sort === 'article_count' || input.sort === 'created_at' ? 'desc' : 'asc'),
      limit,
      offset,
    });
    return { items: rows.map(tagRowOut), total, limit, offset };
  }

  /**
   * Merges the source tags into the target: every article of a source ends up linked to the target
   * once, the sources are deleted, and their names lead to the target when the tagger meets them
   * again. `dry_run` answers the same figures and changes nothing.
   */
  async merge(
    input: { source_ids: string[]; target_id: string; dry_run?: boolean },
    actorId: string | null,
  ): Promise<MergeOut> {
    const sourceIds = [...new Set(input.source_ids)];
    if (sourceIds.includes(input.target_id)) {
      throw invalid('a tag cannot be merged into itself', 'merge_into_itself', [
        { path: '/source_ids', message: 'contains target_id' },
      ]);
    }
    const dryRun = input.dry_run ?? false;
    return this.write(dryRun, async (repo) => {
      if (!dryRun) await repo.lockTags([input.target_id, ...sourceIds]);
      const [target] = await repo.tagRows([input.target_id]);
      if (!target) throw unknownTags([input.target_id], '/target_id');
      const { found, already } = await this.resolve(
        repo,
        sourceIds,
        (into) => into === target.id,
        '/source_ids',
      );
      const foreign = found.filter((t) => t.topicId !== target.topicId);
      if (foreign.length) {
        throw invalid('the tags belong to different topics', 'topic_mismatch', [
          ...foreign.map((t) => ({ path: '/source_ids', message: `tag ${t.id} is in another topic` })),
        ]);
      }
      const ids = found.map((t) => t.id);
      const stats = await repo.mergeStats(ids, target.id);
      if (!dryRun) await this.fold(repo, found, target, actorId);
      return {
        dry_run: dryRun,
        target: tagRowOut(target),
        removed: found.map(tagRowOut),
        links_moved: stats.moved,
        links_dropped: stats.sourceLinks - stats.moved,
        target_article_count: { before: target.articleCount, after: target.articleCount + stats.moved },
        already_merged: already,
      };
    });
  }

  /**
   * Moves tags to a group (null: Ungrouped). A tag whose name that group already holds (or which
   * shares its name with another moved tag) is merged into that tag instead, links de-duplicated;
   * of several same-named moved tags the one with the most articles moves.
   */
  async move(
    input: { tag_ids: string[]; tag_group_id: string | null; dry_run?: boolean },
    actorId: string | null,
  ): Promise<MoveOut> {
    const ids = [...new Set(input.tag_ids)];
    const dryRun = input.dry_run ?? false;
    const groupId = input.tag_group_id;
    return this.write(dryRun, async (repo) => {
      if (!dryRun) await repo.lockTags(ids);
      const { found, already } = await this.resolve(repo, ids, () => true, '/tag_ids');
      if (groupId) {
        const g = await repo.getGroup(groupId);
        if (!g) throw notFound('tag group', 'tag_group_not_found');
        if (found.some((t) => t.topicId !== g.topicId)) {
          throw invalid('the tag group belongs to another topic', 'topic_mismatch', [
            { path: '/tag_group_id', message: 'group of another topic' },
          ]);
        }
      }
      const holder = new Map<string, { id: string; name: string }>();
      for (const topicId of new Set(found.map((t) => t.topicId))) {
        for (const t of await repo.listTags({ topicId, groupId })) holder.set(`${topicId}\n${t.name}`, t);
      }
      const moved: TagTableRow[] = [];
      const unchanged: TagTableRow[] = [];
      const into = new Map<string, { target: { id: string; name: string }; sources: TagTableRow[] }>();
      const order = [...found].sort((a, b) => b.articleCount - a.articleCount || a.id.localeCompare(b.id));
      for (const tag of order) {
        const key = `${tag.topicId}\n${tag.name}`;
        if (tag.tagGroupId === groupId) {
          unchanged.push(tag);
          continue;
        }
        const twin = holder.get(key);
        if (!twin) {
          moved.push(tag);
          holder.set(key, tag);
          continue;
        }
        const entry = into.get(twin.id) ?? { target: { id: twin.id, name: twin.name }, sources: [] };
        entry.sources.push(tag);
        into.set(twin.id, entry);
      }
      const merged: MoveMergeOut[] = [];
      for (const { target, sources } of into.values()) {
        const stats = await repo.mergeStats(
          sources.map((s) => s.id),
          target.id,
        );
        merged.push({
          into: target,
          removed: sources.map(tagRowOut),
          links_moved: stats.moved,
          links_dropped: stats.sourceLinks - stats.moved,
        });
      }
      if (!dryRun) {
        await repo.moveTags(
          moved.map((t) => t.id),
          groupId,
        );
        for (const { target, sources } of into.values()) await this.fold(repo, sources, target, actorId);
      }
      const byName = (a: TagTableRow, b: TagTableRow) => a.name.localeCompare(b.name);
      return {
        dry_run: dryRun,
        tag_group_id: groupId,
        moved: moved.sort(byName).map(tagRowOut),
        unchanged: unchanged.sort(byName).map(tagRowOut),
        merged,
        already_merged: already,
      };
    });
  }

  /** Pending suggestions, a page at a time, with tag article counts and the articles behind them. */
  async suggestions(input: {
    topic_id?: string;
    limit?: number;
    offset?: number;
  }): Promise<SuggestionPageOut> {
    const limit = input.limit ?? 20;
    const offset = input.offset ?? 0;
    const all = await this.store.listSuggestions('pending', input.topic_id);
    const page = all.slice(offset, offset + limit);
    const tagIds = [
      ...new Set(page.flatMap((s) => [s.newTag.id, s.existingTag.id]).filter((x): x is string => !!x)),
    ];
    const counts = new Map((await this.store.tagRows(tagIds)).map((t) => [t.id, t.articleCount]));
    const newIds = page.map((s) => s.newTag.id).filter((x): x is string => !!x);
    const byTag = await this.store.articlesOfTags(newIds, ARTICLES_PER_SUGGESTION);
    const triggers = new Map(
      (await this.store.articleRefs(page.map((s) => s.articleId).filter((x): x is string => !!x))).map(
        (a) => [a.id, a],
      ),
    );
    const items = page.map((s) => {
      const out = suggestionOut(s);
      const trigger = s.articleId ? triggers.get(s.articleId) : undefined;
      const others = (s.newTag.id ? (byTag.get(s.newTag.id) ?? []) : []).filter((a) => a.id !== trigger?.id);
      return {
        ...out,
        new_tag: { ...out.new_tag, article_count: counts.get(s.newTag.id ?? '') ?? 0 },
        existing_tag: { ...out.existing_tag, article_count: counts.get(s.existingTag.id ?? '') ?? 0 },
        articles: [...(trigger ? [trigger] : []), ...others].slice(0, ARTICLES_PER_SUGGESTION),
      };
    });
    return { items, total: all.length, limit, offset };
  }

  /** the listed tags that exist, and the missing ones an earlier merge accounts for; others: 404 */
  private async resolve(
    repo: TagRepository,
    ids: string[],
    accepts: (targetId: string) => boolean,
    path: string,
  ) {
    const found = await repo.tagRows(ids);
    const known = new Set(found.map((t) => t.id));
    const missing = ids.filter((id) => !known.has(id));
    const merged = await repo.mergedInto(missing);
    const already = missing.filter((id) => merged.has(id) && accepts(merged.get(id)!));
    const unknown = missing.filter((id) => !already.includes(id));
    if (unknown.length) throw unknownTags(unknown, path);
    return { found, already };
  }

  /** links re-pointed (never twice), suggestions about the sources dropped, merge recorded, sources deleted */
  private async fold(
    repo: TagRepository,
    sources: TagTableRow[],
    target: { id: string },
    actorId: string | null,
  ) {
    const ids = sources.map((t) => t.id);
    if (ids.length === 0) return;
    await repo.copyLinks(ids, target.id);
    await repo.dropPendingSuggestionsFor(ids);
    await repo.recordMerges(
      sources.map((s) => ({
        sourceTagId: s.id,
        topicId: s.topicId,
        sourceName: s.name,
        targetTagId: target.id,
        mergedBy: actorId,
      })),
    );
    await repo.deleteTags(ids);
  }

  private async write<T>(dryRun: boolean, fn: (repo: TagRepository) => Promise<T>): Promise<T> {
    try {
      return dryRun ? await fn(this.store) : await this.store.transaction(fn);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('a tag of that name exists in that group', 'tag_name_taken');
      throw e;
    }
  }
}
