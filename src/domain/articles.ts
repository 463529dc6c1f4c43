/** Article read models of the public API (ArticleOut in lists, ArticleDetailOut for one article). */
export interface ArticleTranslationView {
  title: string;
  summary: string | null;
}

export interface ArticleSummary {
  id: string;
  topicId: string;
  title: string;
  url: string;
  source: string;
  summary: string | null;
  publishedAt: Date | null;
  scrapedAt: Date;
  language: string | null;
  doi: string | null;
  arxivId: string | null;
  tags: string[];
  /** enabled catalog metrics with a non-null value only */
  metrics: Record<string, number>;
  /** stored count; null until the first flush (sorts as "without a value", shown as 0) */
  viewCount: number | null;
  isFavorited: boolean;
  /** read by the caller; false for guests */
  isRead: boolean;
  /** the best-matching excerpt of a search (`q`), plain-text segments; null without `q` */
  snippet: SnippetSegment[] | null;
  /** its work: id, how many versions it has (this one included), how many articles cover it */
  work: WorkRef;
}

export interface WorkRef {
  id: string;
  versions: number;
  coverage: number;
}

/** A piece of a search snippet: plain text, highlighted where the query matched. */
export interface SnippetSegment {
  text: string;
  highlight: boolean;
}

/** One enabled catalog metric of an article, with where and when its value was fetched. */
export interface MetricDetail {
  key: string;
  value: number;
  source: string | null;
  fetchedAt: Date | null;
}

export interface ArticleDetail extends ArticleSummary {
  content: string | null;
  author: string | null;
  translations: Record<string, ArticleTranslationView>;
  /**
   * The version of the stored row: it changes with every write of the article, so what was made
   * of its feed HTML can be kept under it (the HTML itself is read only when it is not kept).
   */
  rowVersion: string;
  metricDetails: MetricDetail[];
}

/** Sort keys that are columns of the article; any other accepted key is an enabled metric_key. */
export const COLUMN_SORTS = ['scraped_at', 'published_at', 'source', 'title', 'view_count'] as const;
export type ColumnSort = (typeof COLUMN_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

export type ArticleSort =
  | { kind: 'column'; column: ColumnSort }
  | { kind: 'metric'; metricKey: string }
  /** best match of `q` first (only with `q`) */
  | { kind: 'relevance' };

export const isColumnSort = (s: string): s is ColumnSort => (COLUMN_SORTS as readonly string[]).includes(s);
