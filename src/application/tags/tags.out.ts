import type { Suggestion, Tag, TagGroup } from '../../domain/tags.js';
import { UNGROUPED } from '../../domain/tags.js';

export interface TagOut {
  id: string;
  name: string;
  tag_group_id: string | null;
  article_count: number;
}

export interface SimilarGroupOut {
  id: string;
  name: string;
  display_name: string;
  similarity: number;
}

export interface TagGroupOut {
  /** null for the virtual Ungrouped group */
  id: string | null;
  topic_id: string;
  name: string;
  display_name: string;
  description: string | null;
  color_hex: string | null;
  sort_order: number;
  tags: TagOut[];
  /** only when the tags were left out (`include_tags=false`): how many the group holds */
  tag_count?: number;
  similar_groups?: SimilarGroupOut[];
}

export interface SuggestionOut {
  id: string;
  new_tag: { id: string | null; name: string; group: string | null };
  existing_tag: { id: string | null; name: string; group: string | null };
  similarity_score: number;
  article_id: string | null;
  created_at: string;
}

export interface ResolutionOut {
  id: string;
  status: 'approved' | 'rejected';
  resolved_by: string;
  resolved_at: string;
}

export const tagOut = (t: Tag): TagOut => ({
  id: t.id,
  name: t.name,
  tag_group_id: t.tagGroupId,
  article_count: t.articleCount,
});

export const groupOut = (g: TagGroup, tags: Tag[]): TagGroupOut => ({
  id: g.id,
  topic_id: g.topicId,
  name: g.name,
  display_name: g.displayName,
  description: g.description,
  color_hex: g.colorHex,
  sort_order: g.sortOrder,
  tags: tags.map(tagOut),
});

/** The virtual group of a topic's tags without a group; it sorts after every real group. */
export const ungroupedOut = (topicId: string, tags: Tag[], sortOrder: number): TagGroupOut => ({
  id: null,
  topic_id: topicId,
  name: UNGROUPED.name,
  display_name: UNGROUPED.displayName,
  description: null,
  color_hex: null,
  sort_order: sortOrder,
  tags: tags.map(tagOut),
});

export const suggestionOut = (s: Suggestion): SuggestionOut => ({
  id: s.id,
  new_tag: { id: s.newTag.id, name: s.newTag.name, group: s.newTag.group },
  existing_tag: { id: s.existingTag.id, name: s.existingTag.name, group: s.existingTag.group },
  similarity_score: s.similarityScore,
  article_id: s.articleId,
  created_at: s.createdAt.toISOString(),
});
