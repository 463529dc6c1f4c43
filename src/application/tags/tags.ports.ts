import type { Embedding, Suggestion, SuggestionStatus, Tag, TagGroup, TagVector } from '../../domain/tags.js';

export interface GroupInput {
  topicId: string;
  name: string;
  displayName: string;
  description: string | null;
  colorHex: string | null;
  sortOrder?: number;
  embedding: Embedding | null;
}

export type GroupPatch = Partial<Omit<GroupInput, 'topicId'>>;

export interface SuggestionInput {
  topicId: string;
  newTagId: string;
  existingTagId: string;
  newTagName: string;
  existingTagName: string;
  similarityScore: number;
  articleId: string | null;
}

export type TagSort = 'name' | 'group' | 'article_count' | 'created_at';

/** One page of the admin tags table; `groupId: null` = the ungrouped tags, undefined = all. */
export interface TagTableQuery {
  topicId?: string;
  /** already normalized (as tag names are); matched as a case-insensitive substring */
  q?: string;
  groupId?: string | null;
  sort: TagSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface TagTableRow extends Tag {
  groupName: string | null;
  groupColor: string | null;
  createdAt: Date;
}

/** What merging some tags into one target does to the article-tag links. */
export interface MergeStats {
  /** links of the source tags (all of them go away with the sources) */
  sourceLinks: number;
  /** articles that gain a link to the target (had a source, not the target) */
  moved: number;
}

export interface MergeRecord {
  sourceTagId: string;
  topicId: string;
  sourceName: string;
  targetTagId: string;
  mergedBy: string | null;
}

export interface ArticleRef {
  id: string;
  title: string;
}

/**
 * Storage of tag groups, tags, article-tag links and normalization suggestions. Every method is
 * one statement or one read; multi-step writes go through `TagStore.transaction`.
 */
export interface TagRepository {
  topicExists(topicId: string): Promise<boolean>;

  listGroups(topicId: string): Promise<TagGroup[]>;
  getGroup(id: string): Promise<TagGroup | null>;
  createGroup(input: GroupInput): Promise<TagGroup>;
  updateGroup(id: string, patch: GroupPatch): Promise<TagGroup | null>;
  deleteGroup(id: string): Promise<boolean>;
  /** next sort_order for a new group of the topic */
  nextSortOrder(topicId: string): Promise<number>;
  setSortOrder(id: string, sortOrder: number): Promise<boolean>;

  /** tags with their article counts; `groupId: null` = the ungrouped ones */
  listTags(filter: { topicId?: string; groupId?: string | null; ids?: string[] }): Promise<Tag[]>;
  getTag(id: string): Promise<Tag | null>;
  /** tags (with embeddings) of a topic, optionally only those with one of the given names */
  tagVectors(topicId: string, names?: string[]): Promise<TagVector[]>;
  /** ids of the topic's tags with one of these names, oldest first (no embeddings read) */
  tagIds(topicId: string, names: string[]): Promise<{ id: string; name: string }[]>;
  /** inserts an ungrouped tag; null when one of that name already exists there */
  insertTag(input: { topicId: string; name: string; embedding: Embedding | null }): Promise<TagVector | null>;
  updateTag(
    id: string,
    patch: { name?: string; tagGroupId?: string | null; embedding?: Embedding | null },
  ): Promise<Tag | null>;
  moveTags(ids: string[], groupId: string | null): Promise<number>;
  /** one page of the admin tags table and the number of matching tags */
  tagTable(query: TagTableQuery): Promise<{ rows: TagTableRow[]; total: number }>;
  /** number of tags per group of the topic (key null: the ungrouped ones) */
  tagCountsByGroup(topicId: string): Promise<Map<string | null, number>>;
  /** tags with group names, created dates and article counts, by id */
  tagRows(ids: string[]): Promise<TagTableRow[]>;
  /** locks the tags (in id order) until the end of the transaction */
  lockTags(ids: string[]): Promise<void>;
  /** what merging `sourceIds` into `targetId` would do to the links */
  mergeStats(sourceIds: string[], targetId: string): Promise<MergeStats>;
  /** links every article of the sources to the target (never twice); the sources keep theirs */
  copyLinks(sourceIds: string[], targetId: string): Promise<void>;
  /** remembers merges (re-pointing older merges into a source to the new target) */
  recordMerges(records: MergeRecord[]): Promise<void>;
  /** source tag id → target tag id, for ids merged away before */
  mergedInto(sourceIds: string[]): Promise<Map<string, string>>;
  /** up to `perTag` articles of each tag, newest link first */
  articlesOfTags(tagIds: string[], perTag: number): Promise<Map<string, ArticleRef[]>>;
  /** titles of these articles */
  articleRefs(ids: string[]): Promise<ArticleRef[]>;
  /** deletes tags (their article links go with them) */
  deleteTags(ids: string[]): Promise<number>;

  /** links the article to the tags; existing links are kept as they are */
  linkArticle(articleId: string, tagIds: string[]): Promise<void>;
  /** removes the article's links to these tags */
  unlinkArticle(articleId: string, tagIds: string[]): Promise<void>;
  /** moves every article link of `fromTagId` to `toTagId`, never duplicating a link */
  moveLinks(fromTagId: string, toTagId: string): Promise<void>;
  countLinks(tagIds: string[]): Promise<number>;

  listSuggestions(status: SuggestionStatus, topicId?: string): Promise<Suggestion[]>;
  /** the suggestion, locked until the end of the transaction */
  lockSuggestion(id: string): Promise<Suggestion | null>;
  resolveSuggestion(id: string, status: 'approved' | 'rejected', resolvedBy: string, at: Date): Promise<void>;
  /** removes pending suggestions that involve one of the tags (but the one `exceptId` names) */
  dropPendingSuggestionsFor(tagIds: string[], exceptId?: string): Promise<void>;
  insertSuggestion(input: SuggestionInput): Promise<boolean>;
  /** every recorded pair (any status) among these new-tag names, as [newName, existingName] */
  suggestionPairs(topicId: string, names: string[]): Promise<[string, string][]>;
  /**
   * approved merges (suggestions and admin tag merges): new-tag name → id of the tag it was merged
   * into (when that still exists)
   */
  approvedAliases(topicId: string, names: string[]): Promise<Map<string, string>>;
}

export interface TagStore extends TagRepository {
  /** runs `fn` in one database transaction: everything it writes commits together or not at all */
  transaction<T>(fn: (repo: TagRepository) => Promise<T>): Promise<T>;
}
