import { conflict, invalid, notFound } from '../../domain/errors.js';
import { slugify, titleCase } from '../../domain/text.js';
import { COLOR_HEX_RE, SIMILAR_GROUP_THRESHOLD, type Embedding, type TagGroup } from '../../domain/tags.js';
import { cosineSimilarity, type EmbeddingProvider } from '../shared/embedding.js';
import type { TagRepository, TagStore } from './tags.ports.js';
import { groupOut, ungroupedOut, type SimilarGroupOut, type TagGroupOut } from './tags.out.js';
import { isUniqueViolation } from './tags.errors.js';

export interface CreateGroupInput {
  topic_id: string;
  name: string;
  display_name: string;
  description?: string | null;
  color_hex?: string | null;
}
export interface UpdateGroupInput {
  name?: string;
  display_name?: string;
  description?: string | null;
  color_hex?: string | null;
}
export interface MergeGroupsInput {
  source_group_id: string;
  target_group_id?: string;
  result_name?: string;
  result_display_name?: string;
  result_color?: string | null;
}

const slugOrFail = (raw: string, field: string) => {
  const slug = slugify(raw);
  if (!slug)
    throw invalid(`${field} must contain letters or digits`, 'invalid_name', [
      { path: `/${field}`, message: 'empty after normalization' },
    ]);
  return slug;
};
const titleOrFail = (raw: string, field: string) => {
  const title = titleCase(raw);
  if (!title)
    throw invalid(`${field} must not be blank`, 'invalid_name', [{ path: `/${field}`, message: 'blank' }]);
  return title;
};
const checkColor = (color: string | null | undefined, field: string) => {
  if (color !== null && color !== undefined && !COLOR_HEX_RE.test(color)) {
    throw invalid(`${field} must be a 7-character hex color like #1a2b3c`, 'invalid_color', [
      { path: `/${field}`, message: 'not #rrggbb' },
    ]);
  }
};
const nameTaken = (name: string) =>
  conflict(`a tag group named "${name}" exists in this topic`, 'tag_group_name_taken');

/** Tag groups of a topic: listing with the virtual Ungrouped group, edits, merge and reorder. */
export class TagGroupsService {
  constructor(
    private readonly store: TagStore,
    private readonly embedder: EmbeddingProvider,
  ) {}

  /**
   * The topic's groups in their order, the virtual Ungrouped group last. `includeTags: false` leaves
   * every `tags[]` empty and gives `tag_count` instead (a topic with thousands of tags).
   */
  async list(topicId: string, includeSimilar = false, includeTags = true): Promise<TagGroupOut[]> {
    if (!(await this.store.topicExists(topicId))) throw notFound('topic');
    const [groups, tags, counts] = await Promise.all([
      this.store.listGroups(topicId),
      includeTags ? this.store.listTags({ topicId }) : Promise.resolve([]),
      includeTags ? Promise.resolve(null) : this.store.tagCountsByGroup(topicId),
    ]);
    const withCount = (o: TagGroupOut) => (counts ? { ...o, tag_count: counts.get(o.id) ?? 0 } : o);
    const out = groups.map((g) =>
      withCount(
        groupOut(
          g,
          tags.filter((t) => t.tagGroupId === g.id),
        ),
      ),
    );
    if (includeSimilar) {
      out.forEach((o, i) => (o.similar_groups = similarTo(groups[i]!, groups)));
    }
    const lastOrder = groups.reduce((m, g) => Math.max(m, g.sortOrder), -1);
    out.push(
      withCount(
        ungroupedOut(
          topicId,
          tags.filter((t) => t.tagGroupId === null),
          lastOrder + 1,
        ),
      ),
    );
    return out;
  }

  async get(id: string): Promise<TagGroupOut> {
    const g = await this.store.getGroup(id);
    if (!g) throw notFound('tag group', 'tag_group_not_found');
    return groupOut(g, await this.store.listTags({ groupId: id }));
  }

  async create(input: CreateGroupInput): Promise<TagGroupOut> {
    const name = slugOrFail(input.name, 'name');
    const displayName = titleOrFail(input.display_name, 'display_name');
    checkColor(input.color_hex, 'color_hex');
    if (!(await this.store.topicExists(input.topic_id))) throw notFound('topic');
    const embedding = await this.embed(displayName);
    try {
      const g = await this.store.createGroup({
        topicId: input.topic_id,
        name,
        displayName,
        description: input.description ?? null,
        colorHex: input.color_hex ?? null,
        sortOrder: await this.store.nextSortOrder(input.topic_id),
        embedding,
      });
      return groupOut(g, []);
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(name);
      throw e;
    }
  }

  async update(id: string, patch: UpdateGroupInput): Promise<TagGroupOut> {
    const current = await this.store.getGroup(id);
    if (!current) throw notFound('tag group', 'tag_group_not_found');
    checkColor(patch.color_hex, 'color_hex');
    const name = patch.name === undefined ? undefined : slugOrFail(patch.name, 'name');
    const displayName =
      patch.display_name === undefined ? undefined : titleOrFail(patch.display_name, 'display_name');
    const renamed =
      (name !== undefined && name !== current.name) ||
      (displayName !== undefined && displayName !== current.displayName);
    const embedding = renamed ? await this.embed(displayName ?? current.displayName) : undefined;
    try {
      const g = await this.store.updateGroup(id, {
        name,
        displayName,
        description: patch.description,
        colorHex: patch.color_hex,
        embedding,
      });
      if (!g) throw notFound('tag group', 'tag_group_not_found');
      return groupOut(g, await this.store.listTags({ groupId: id }));
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(name ?? current.name);
      throw e;
    }
  }

  /** Deletes the group; its tags become ungrouped (merged into an ungrouped tag of the same name). */
  async delete(id: string): Promise<void> {
    await this.store.transaction(async (repo) => {
      const g = await repo.getGroup(id);
      if (!g) throw notFound('tag group', 'tag_group_not_found');
      await absorbInto(repo, g.topicId, id, null);
      await repo.deleteGroup(id);
    });
  }

  /**
   * Moves every tag of the source group into the target (or a new group), de-duplicating tags of
   * the same name, and deletes the source. One transaction: a failure at any step changes nothing.
   */
  async merge(input: MergeGroupsInput): Promise<TagGroupOut> {
    checkColor(input.result_color, 'result_color');
    const name = input.result_name === undefined ? undefined : slugOrFail(input.result_name, 'result_name');
    const displayName =
      input.result_display_name !== undefined
        ? titleOrFail(input.result_display_name, 'result_display_name')
        : input.result_name !== undefined
          ? titleOrFail(input.result_name, 'result_name')
          : undefined;
    const source = await this.store.getGroup(input.source_group_id);
    if (!source) throw notFound('source tag group', 'tag_group_not_found');
    const target = input.target_group_id ? await this.store.getGroup(input.target_group_id) : null;
    if (input.target_group_id && !target) throw notFound('target tag group', 'tag_group_not_found');
    if (target && target.id === source.id)
      throw invalid('source and target are the same group', 'same_group');
    if (target && target.topicId !== source.topicId) {
      throw invalid('source and target belong to different topics', 'topic_mismatch');
    }
    const base = target ?? source;
    const finalDisplay = displayName ?? base.displayName;
    // embedding first: no transaction stays open while the embedding service answers
    const embedding =
      finalDisplay !== base.displayName || !target ? await this.embed(finalDisplay) : undefined;
    try {
      const merged = await this.store.transaction(async (repo) => {
        let keep: TagGroup;
        if (target) {
          keep = target;
        } else {
          // the new group may take the source's name: free it first (invisible outside the transaction)
          await repo.updateGroup(source.id, { name: `${source.name}~merging~${source.id}` });
          keep = await repo.createGroup({
            topicId: source.topicId,
            name: name ?? source.name,
            displayName: finalDisplay,
            description: source.description,
            colorHex: input.result_color ?? source.colorHex,
            sortOrder: source.sortOrder,
            embedding: embedding ?? null,
          });
        }
        await absorbInto(repo, source.topicId, source.id, keep.id);
        await repo.deleteGroup(source.id);
        if (target) {
          // renaming the kept group is the last step: a name conflict rolls back the whole merge
          const updated = await repo.updateGroup(target.id, {
            name,
            displayName,
            colorHex: input.result_color,
            embedding,
          });
          keep = updated ?? target;
        }
        return keep;
      });
      return groupOut(merged, await this.store.listTags({ groupId: merged.id }));
    } catch (e) {
      if (isUniqueViolation(e)) throw nameTaken(name ?? source.name);
      throw e;
    }
  }

  async reorder(items: { id: string; sort_order: number }[]): Promise<{ updated: number }> {
    await this.store.transaction(async (repo) => {
      for (const item of items) {
        if (!(await repo.setSortOrder(item.id, item.sort_order))) {
          throw notFound(`tag group ${item.id}`, 'tag_group_not_found');
        }
      }
    });
    return { updated: items.length };
  }

  private async embed(text: string): Promise<Embedding> {
    const [v] = await this.embedder.embed([text]);
    return v!;
  }
}

/** Groups of the same topic whose embeddings are at least 0.90 similar, closest first. */
function similarTo(group: TagGroup, all: TagGroup[]): SimilarGroupOut[] {
  if (!group.embedding) return [];
  return all
    .filter((o) => o.id !== group.id && o.embedding)
    .map((o) => ({ o, s: cosineSimilarity(group.embedding!, o.embedding!) }))
    .filter(({ s }) => s >= SIMILAR_GROUP_THRESHOLD)
    .sort((a, b) => b.s - a.s)
    .map(({ o, s }) => ({
      id: o.id,
      name: o.name,
      display_name: o.displayName,
      similarity: Math.round(s * 1e4) / 1e4,
    }));
}

/**
 * Moves the tags of group `fromId` into group `toId` (null = ungrouped). A tag whose name already
 * exists there is merged into that tag: its article links move over (never duplicated) and it is
 * deleted.
 */
export async function absorbInto(repo: TagRepository, topicId: string, fromId: string, toId: string | null) {
  const moving = await repo.listTags({ groupId: fromId });
  if (moving.length === 0) return;
  const there = new Map(
    (await repo.listTags({ topicId, groupId: toId })).map((t) => [t.name, t.id] as const),
  );
  const move: string[] = [];
  for (const tag of moving) {
    const twin = there.get(tag.name);
    if (!twin) {
      move.push(tag.id);
      continue;
    }
    await repo.moveLinks(tag.id, twin);
    await repo.dropPendingSuggestionsFor([tag.id]);
    await repo.deleteTags([tag.id]);
  }
  await repo.moveTags(move, toId);
}
