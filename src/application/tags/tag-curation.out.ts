import type { ArticleRef, TagTableRow } from './tags.ports.js';
import type { SuggestionOut } from './tags.out.js';

/** A row of the admin tags table. */
export interface TagRowOut {
  id: string;
  topic_id: string;
  name: string;
  tag_group_id: string | null;
  /** display name of the group, null when ungrouped */
  group_name: string | null;
  group_color: string | null;
  article_count: number;
  created_at: string;
}

export interface TagPageOut {
  items: TagRowOut[];
  total: number;
  limit: number;
  offset: number;
}

/** What a merge changes (a dry run: would change). */
export interface MergeOut {
  dry_run: boolean;
  /** the kept tag, with its article count before the merge */
  target: TagRowOut;
  /** the tags that disappear, with their article counts */
  removed: TagRowOut[];
  /** article links re-pointed to the target */
  links_moved: number;
  /** links dropped as duplicates: the article already had the target (or another source) */
  links_dropped: number;
  target_article_count: { before: number; after: number };
  /** source ids that were merged into this target by an earlier request (nothing left to do) */
  already_merged: string[];
}

export interface MoveMergeOut {
  into: { id: string; name: string };
  removed: TagRowOut[];
  links_moved: number;
  links_dropped: number;
}

/** What a bulk move changes (a dry run: would change). */
export interface MoveOut {
  dry_run: boolean;
  /** null: Ungrouped */
  tag_group_id: string | null;
  /** tags that change group */
  moved: TagRowOut[];
  /** tags already in that group */
  unchanged: TagRowOut[];
  /** tags whose name the group already holds: merged into that tag */
  merged: MoveMergeOut[];
  already_merged: string[];
}

export interface SuggestionDetailOut extends SuggestionOut {
  new_tag: SuggestionOut['new_tag'] & { article_count: number };
  existing_tag: SuggestionOut['existing_tag'] & { article_count: number };
  /** the article whose tagging raised the suggestion first, then other articles of the new tag */
  articles: ArticleRef[];
}

export interface SuggestionPageOut {
  items: SuggestionDetailOut[];
  total: number;
  limit: number;
  offset: number;
}

export const tagRowOut = (t: TagTableRow): TagRowOut => ({
  id: t.id,
  topic_id: t.topicId,
  name: t.name,
  tag_group_id: t.tagGroupId,
  group_name: t.groupName,
  group_color: t.groupColor,
  article_count: t.articleCount,
  created_at: t.createdAt.toISOString(),
});
