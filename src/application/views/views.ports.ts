export interface ViewIncrement {
  articleId: string;
  views: number;
}

/** Where flushed counts end up (articles.view_count). */
export interface ViewCountStore {
  /**
   * Adds each amount to the stored count in one write (all or nothing). Returns what was applied:
   * rows of articles deleted since their views were counted are skipped.
   */
  addViews(increments: readonly ViewIncrement[]): Promise<{ articles: number; views: number }>;
  exists(articleId: string): Promise<boolean>;
}
