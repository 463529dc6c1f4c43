/**
 * How the pipeline attaches tags to an article (implemented by the tags area, consumed by the
 * pipeline's tag-normalization handler through wiring).
 */
export interface TagArticleResult {
  /** ids of the tags now linked to the article */
  tagIds: string[];
  /** names of tags that did not exist and were created */
  createdTags: string[];
  /** pending normalization suggestions recorded for this article */
  suggestions: number;
}

export interface ArticleTagger {
  /**
   * Links the article to tags of its topic by name: an exact (normalized) match reuses the tag;
   * otherwise a new tag is created and, when it is close to an existing tag of the topic
   * (similarity >= the configured threshold), a pending normalization suggestion is recorded
   * (unless that pair was rejected before).
   */
  tagArticle(input: { topicId: string; articleId: string; names: string[] }): Promise<TagArticleResult>;
  /**
   * Removes the article's links to these tags (an analysis that could not be stored after its
   * tags were linked); the tags themselves stay.
   */
  untagArticle(articleId: string, tagIds: string[]): Promise<void>;
}
