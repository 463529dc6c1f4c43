import { AppError, conflict, invalid, notFound } from '../../domain/errors.js';
import { normalizeTagName } from '../../domain/tags.js';
import type { Clock } from '../shared/ports.js';
import type { EmbeddingProvider } from '../shared/embedding.js';
import type { TagRepository, TagStore } from './tags.ports.js';
import { suggestionOut, tagOut, type ResolutionOut, type SuggestionOut, type TagOut } from './tags.out.js';
import { isForeignKeyViolation, isUniqueViolation } from './tags.errors.js';

const tagNameTaken = () => conflict('a tag of that name exists in that group', 'tag_name_taken');
const unknownResolver = () =>
  invalid('resolved_by is not a known user', 'unknown_user', [
    { path: '/resolved_by', message: 'no such user' },
  ]);

/** Tags (rename, move, delete, batch-move) and normalization suggestions (list, approve, reject). */
export class TagsService {
  constructor(
    private readonly store: TagStore,
    private readonly embedder: EmbeddingProvider,
    private readonly clock: Clock,
  ) {}

  async update(id: string, patch: { name?: string; tag_group_id?: string | null }): Promise<TagOut> {
    const tag = await this.store.getTag(id);
    if (!tag) throw notFound('tag', 'tag_not_found');
    if (patch.tag_group_id) await this.checkGroup(this.store, patch.tag_group_id, tag.topicId);
    let name: string | undefined;
    let embedding;
    if (patch.name !== undefined) {
      name = normalizeTagName(patch.name);
      if (!name)
        throw invalid('name must not be blank', 'invalid_name', [{ path: '/name', message: 'blank' }]);
      if (name !== tag.name) [embedding] = await this.embedder.embed([name]);
    }
    try {
      const updated = await this.store.updateTag(id, { name, tagGroupId: patch.tag_group_id, embedding });
      if (!updated) throw notFound('tag', 'tag_not_found');
      return tagOut(updated);
    } catch (e) {
      if (isUniqueViolation(e)) throw tagNameTaken();
      throw e;
    }
  }

  /** Deletes the tag, its article links and the pending suggestions that involve it. */
  async delete(id: string): Promise<void> {
    await this.store.transaction(async (repo) => {
      await repo.dropPendingSuggestionsFor([id]);
      if ((await repo.deleteTags([id])) === 0) throw notFound('tag', 'tag_not_found');
    });
  }

  /** Moves every listed tag, or none: an unknown tag, a foreign group or a name clash refuses all. */
  async batchMove(input: { tag_ids: string[]; tag_group_id: string | null }): Promise<{ moved: number }> {
    const ids = [...new Set(input.tag_ids)];
    try {
      return await this.store.transaction(async (repo) => {
        const found = await repo.listTags({ ids });
        if (found.length !== ids.length) {
          const known = new Set(found.map((t) => t.id));
          throw new AppError(
            'NotFound',
            'tag_not_found',
            'tag not found',
            ids.filter((i) => !known.has(i)).map((i) => ({ path: '/tag_ids', message: `unknown tag ${i}` })),
          );
        }
        if (input.tag_group_id) {
          for (const topicId of new Set(found.map((t) => t.topicId))) {
            await this.checkGroup(repo, input.tag_group_id, topicId);
          }
        }
        return { moved: await repo.moveTags(ids, input.tag_group_id) };
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw tagNameTaken();
      throw e;
    }
  }

  async listPendingSuggestions(topicId?: string): Promise<SuggestionOut[]> {
    return (await this.store.listSuggestions('pending', topicId)).map(suggestionOut);
  }

  /**
   * Merges the suggestion's new tag into the existing one: article links move (never duplicated),
   * the new tag is deleted, the resolution is recorded. One transaction; recording the resolution
   * is the last step, so an unknown `resolved_by` rolls every step back.
   */
  async approve(id: string, resolvedBy: string): Promise<ResolutionOut> {
    const at = this.clock.now();
    try {
      await this.store.transaction(async (repo) => {
        const s = await this.pending(repo, id);
        const newTagId = s.newTag.id;
        const existingTagId = s.existingTag.id;
        if (!newTagId || !existingTagId) {
          throw conflict('a tag of this suggestion no longer exists', 'suggestion_stale');
        }
        await repo.moveLinks(newTagId, existingTagId);
        await repo.dropPendingSuggestionsFor([newTagId], id);
        await repo.deleteTags([newTagId]);
        await repo.resolveSuggestion(id, 'approved', resolvedBy, at);
      });
    } catch (e) {
      if (isForeignKeyViolation(e)) throw unknownResolver();
      throw e;
    }
    return { id, status: 'approved', resolved_by: resolvedBy, resolved_at: at.toISOString() };
  }

  /** Keeps both tags; the pair stays recorded so it is never suggested again. */
  async reject(id: string, resolvedBy: string): Promise<ResolutionOut> {
    const at = this.clock.now();
    try {
      await this.store.transaction(async (repo) => {
        await this.pending(repo, id);
        await repo.resolveSuggestion(id, 'rejected', resolvedBy, at);
      });
    } catch (e) {
      if (isForeignKeyViolation(e)) throw unknownResolver();
      throw e;
    }
    return { id, status: 'rejected', resolved_by: resolvedBy, resolved_at: at.toISOString() };
  }

  private async pending(repo: TagRepository, id: string) {
    const s = await repo.lockSuggestion(id);
    if (!s) throw notFound('suggestion', 'suggestion_not_found');
    if (s.status !== 'pending')
      throw conflict(`the suggestion is already ${s.status}`, 'suggestion_resolved');
    return s;
  }

  private async checkGroup(repo: TagRepository, groupId: string, topicId: string) {
    const g = await repo.getGroup(groupId);
    if (!g) throw notFound('tag group', 'tag_group_not_found');
    if (g.topicId !== topicId) {
      throw invalid('the tag group belongs to another topic', 'topic_mismatch', [
        { path: '/tag_group_id', message: 'group of another topic' },
      ]);
    }
  }
}
