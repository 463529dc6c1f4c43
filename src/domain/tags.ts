/** An embedding as stored: dense floats or a sparse token → weight map. */
export type Embedding = number[] | Record<string, number>;

export interface TagGroup {
  id: string;
  topicId: string;
  /** slug */
  name: string;
  /** title case */
  displayName: string;
  description: string | null;
  colorHex: string | null;
  sortOrder: number;
  embedding: Embedding | null;
}

export interface Tag {
  id: string;
  topicId: string;
  name: string;
  tagGroupId: string | null;
  articleCount: number;
}

/** A tag with its embedding, for similarity searches. */
export interface TagVector {
  id: string;
  name: string;
  tagGroupId: string | null;
  embedding: Embedding | null;
}

export type SuggestionStatus = 'pending' | 'approved' | 'rejected';

export interface SuggestionSide {
  id: string | null;
  name: string;
  /** display name of the tag's group, null when ungrouped */
  group: string | null;
}

export interface Suggestion {
  id: string;
  topicId: string;
  newTag: SuggestionSide;
  existingTag: SuggestionSide;
  similarityScore: number;
  articleId: string | null;
  status: SuggestionStatus;
  resolvedBy: string | null;
  resolvedAt: Date | null;
  createdAt: Date;
}

/** The cosine similarity from which two tag groups are similar (`include_similar`, README "Tags and embeddings"). */
export const SIMILAR_GROUP_THRESHOLD = 0.9;

export const COLOR_HEX_RE = /^#[0-9a-fA-F]{6}$/;

/** Name of the virtual group holding the tags without a group. */
export const UNGROUPED = { name: 'ungrouped', displayName: 'Ungrouped' } as const;

/**
 * Tag names are compared after this normalization: Unicode-compatible form, lower case, single
 * spaces. Punctuation is kept ("c++" and "c" are different tags).
 */
export function normalizeTagName(raw: string): string {
  return raw.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim().slice(0, 200);
}
