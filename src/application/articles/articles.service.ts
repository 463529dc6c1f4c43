import { invalid, notFound } from '../../domain/errors.js';
import {
  isColumnSort,
  type ArticleDetail,
  type ArticleSort,
  type ArticleSummary,
  type SortOrder,
} from '../../domain/articles.js';
import type {
  ArticleFilter,
  ArticlePage,
  ArticleReadRepository,
  EnabledMetrics,
  KeyedHtmlSanitizer,
  PendingViews,
  ReadStateRepository,
} from './articles.ports.js';

export interface ListArticlesInput {
  sort?: string;
  order?: SortOrder;
  favoritesOnly?: boolean;
  unreadOnly?: boolean;
  topicId?: string;
  tag?: string;
  source?: string;
  q?: string;
  /** published (or, without a date, scraped) at or after */
  since?: Date;
  /** published (or, without a date, scraped) before (the Reader API's `nt`; the HTTP list has none) */
  until?: Date;
  /** `work`: one row per work */
  collapse?: 'work';
  limit?: number;
  offset?: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** a feed's HTML longer than this is cut before sanitising (bounded work per request) */
export const MAX_HTML_CHARS = 200_000;

/** The reader view: the detail with the feed's HTML sanitised instead of the raw HTML. */
export type ReaderArticle = Omit<ArticleDetail, 'rowVersion'> & { contentHtml: string | null };

/** GET /articles and GET /articles/{id}. */
export class ArticlesService {
  constructor(
    private readonly articles: ArticleReadRepository,
    private readonly metrics: EnabledMetrics,
    private readonly reads: ReadStateRepository,
    private readonly sanitizer: KeyedHtmlSanitizer,
    private readonly views: PendingViews,
  ) {}

  async list(
    input: ListArticlesInput,
    viewerId: string | null,
  ): Promise<ArticlePage & { limit: number; offset: number }> {
    const q = input.q?.trim() || undefined;
    // relevance is the default order of a search, and means nothing without one
    const key = input.sort ?? (q ? 'relevance' : 'scraped_at');
    if (key === 'relevance' && !q)
      throw invalid('sort=relevance needs a search (q)', 'relevance_without_q', [
        { path: '/sort', message: 'relevance needs q' },
      ]);
    // only a metric sort needs the catalog (metrics themselves are joined to it in the page query)
    const sort: ArticleSort =
      key === 'relevance'
        ? { kind: 'relevance' }
        : resolveSort(key, isColumnSort(key) ? [] : await this.sortKeys(key));
    const limit = Math.min(Math.max(input.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
    const offset = Math.max(input.offset ?? 0, 0);
    const filter: ArticleFilter = {
      ...listFilter({ ...input, q }, viewerId),
      // a guest has no read state: the flag is ignored like favorites_only
      unreadFor: input.unreadOnly && viewerId ? viewerId : undefined,
      collapse: input.collapse,
    };
    const page = await this.articles.list({
      filter,
      sort,
      order: input.order ?? 'desc',
      limit,
      offset,
      viewerId,
    });
    // views not yet in the stored count show here as in the reader view (one count everywhere)
    const pending = await this.views.pendingMany(page.items.map((a) => a.id));
    if (pending.size)
      for (const a of page.items) {
        const n = pending.get(a.id);
        if (n) a.viewCount = (a.viewCount ?? 0) + n;
      }
    return { ...page, limit, offset };
  }

  /** the enabled metric keys, read again when `key` is not among the kept ones (a metric just added) */
  private async sortKeys(key: string): Promise<string[]> {
    const kept = await this.metrics.enabledKeys();
    return kept.includes(key) ? kept : this.metrics.enabledKeys({ fresh: true });
  }

  /**
   * The reader view; opening it marks the article read for a signed-in caller, unless `markRead`
   * is false (a read-only token, an assistant looking an article up for its user).
   */
  async get(id: string, viewerId: string | null, opts: { markRead?: boolean } = {}): Promise<ReaderArticle> {
    const [article, pending] = await Promise.all([this.articles.get(id, viewerId), this.views.pending(id)]);
    if (!article) throw notFound('article');
    if (viewerId && !article.isRead && opts.markRead !== false) {
      await this.reads.mark(viewerId, id);
      article.isRead = true;
    }
    const { rowVersion, ...rest } = article;
    // kept per article and row version: a view of a kept one reads no HTML (up to 200 KB) again
    const contentHtml = await this.sanitizer.sanitizeKeyed(`${id}@${rowVersion}`, article.url, async () => {
      const raw = await this.articles.rawHtml(id);
      return raw ? raw.slice(0, MAX_HTML_CHARS) : null;
    });
    return {
      ...rest,
      // views counted in the cache show at once, not after the next flush
      viewCount: pending ? (article.viewCount ?? 0) + pending : article.viewCount,
      contentHtml,
    };
  }

  /** list items of these articles, in the order given (unknown ids left out) */
  summaries(ids: readonly string[], viewerId: string | null): Promise<ArticleSummary[]> {
    return this.articles.byIds(ids, viewerId);
  }
}

/** The list's filters (shared by GET /articles and "mark all as read"). */
export function listFilter(
  input: {
    topicId?: string;
    tag?: string;
    source?: string;
    sourceId?: string;
    q?: string;
    favoritesOnly?: boolean;
    since?: Date;
    until?: Date;
  },
  viewerId: string | null,
): ArticleFilter {
  return {
    topicId: input.topicId,
    tag: input.tag,
    source: input.source,
    sourceId: input.sourceId,
    q: input.q?.trim() || undefined,
    since: input.since,
    until: input.until,
    // a guest has no favorites to narrow to: the flag is ignored (docs/decisions/0030-articles-list-query-shape.md)
    favoritesOf: input.favoritesOnly && viewerId ? viewerId : undefined,
  };
}

/** A column, or a metric_key of an enabled catalog entry; anything else (a disabled metric too) is refused. */
export function resolveSort(key: string, enabledMetricKeys: readonly string[]): ArticleSort {
  if (isColumnSort(key)) return { kind: 'column', column: key };
  if (enabledMetricKeys.includes(key)) return { kind: 'metric', metricKey: key };
  throw invalid(`unknown sort key: ${key}`, 'validation_error', [
    {
      path: '/sort',
      message: `must be one of scraped_at, published_at, source, title, view_count${
        enabledMetricKeys.length ? `, ${enabledMetricKeys.join(', ')}` : ''
      }`,
    },
  ]);
}
