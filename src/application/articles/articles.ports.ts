import type { ArticleDetail, ArticleSort, ArticleSummary, SortOrder } from '../../domain/articles.js';

export interface ArticleFilter {
  topicId?: string;
  /** tag name */
  tag?: string;
  /** source display name */
  source?: string;
  /** case-insensitive substring of the title */
  q?: string;
  /** only the favorites of this user */
  favoritesOf?: string;
}

export interface ArticleListQuery {
  filter: ArticleFilter;
  sort: ArticleSort;
  order: SortOrder;
  limit: number;
  offset: number;
  /** the caller, for is_favorited */
  viewerId: string | null;
}

export interface ArticlePage {
  items: ArticleSummary[];
  total: number;
}

export interface ArticleReadRepository {
  list(query: ArticleListQuery): Promise<ArticlePage>;
  /** `metrics` of both hold the enabled catalog metrics only, read in the same statement */
  get(id: string, viewerId: string | null): Promise<ArticleDetail | null>;
  exists(id: string): Promise<boolean>;
}

/** The enabled metric keys of the catalog (metric_definitions, owned by the metrics area). */
export interface EnabledMetrics {
  enabledKeys(): Promise<string[]>;
}

export interface FavoriteRepository {
  list(userId: string): Promise<string[]>;
  /** 'created' | 'exists' for a known article, 'no_article' when the article does not exist */
  add(userId: string, articleId: string): Promise<'created' | 'exists' | 'no_article'>;
  remove(userId: string, articleId: string): Promise<void>;
}
