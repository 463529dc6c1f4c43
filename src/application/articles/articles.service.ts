import { invalid, notFound } from '../../domain/errors.js';
import { isColumnSort, type ArticleDetail, type ArticleSort, type SortOrder } from '../../domain/articles.js';
import type {
  ArticleFilter,
  ArticlePage,
  ArticleReadRepository,
  EnabledMetrics,
  HtmlSanitizer,
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
  limit?: number;
  offset?: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** a feed's HTML longer than this is cut before sanitising (bounded work per request) */
export const MAX_HTML_CHARS = 200_000;

/** The reader view: the detail with the feed's HTML sanitised instead of the raw HTML. */
export type ReaderArticle = Omit<ArticleDetail, 'rawHtml'> & { contentHtml: string | null };

/** GET /articles and GET /articles/{id}. */
export class ArticlesService {
  constructor(
    private readonly articles: ArticleReadRepository,
    private readonly metrics: EnabledMetrics,
    private readonly reads: ReadStateRepository,
    private readonly sanitizer: HtmlSanitizer,
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
        : resolveSort(key, isColumnSort(key) ? [] : await this.metrics.enabledKeys());
    const limit = Math.min(Math.max(input.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
    const offset = Math.max(input.offset ?? 0, 0);
    const filter: ArticleFilter = {
      ...listFilter({ ...input, q }, viewerId),
      // a guest has no read state: the flag is ignored like favorites_only
      unreadFor: input.unreadOnly && viewerId ? viewerId : undefined,
    };
    const page = await this.articles.list({
      filter,
      sort,
      order: input.order ?? 'desc',
      limit,
      offset,
      viewerId,
    });
    return { ...page, limit, offset };
  }

  /** The reader view; opening it marks the article read for a signed-in caller. */
  async get(id: string, viewerId: string | null): Promise<ReaderArticle> {
    const [article, pending] = await Promise.all([this.articles.get(id, viewerId), this.views.pending(id)]);
    if (!article) throw notFound('article');
    if (viewerId && !article.isRead) {
      await this.reads.mark(viewerId, id);
      article.isRead = true;
    }
    const { rawHtml, ...rest } = article;
    return {
      ...rest,
      // views counted in the cache show at once, not after the next flush
      viewCount: pending ? (article.viewCount ?? 0) + pending : article.viewCount,
      contentHtml: rawHtml
        ? await this.sanitizer.sanitize(rawHtml.slice(0, MAX_HTML_CHARS), article.url)
        : null,
    };
  }
}

/** The list's filters (shared by GET /articles and "mark all as read"). */
export function listFilter(
  input: { topicId?: string; tag?: string; source?: string; q?: string; favoritesOnly?: boolean },
  viewerId: string | null,
): ArticleFilter {
  return {
    topicId: input.topicId,
    tag: input.tag,
    source: input.source,
    q: input.q?.trim() || undefined,
    // a guest has no favorites to narrow to: the flag is ignored (docs/decisions.md)
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
