import { invalid, notFound } from '../../domain/errors.js';
import { isColumnSort, type ArticleDetail, type ArticleSort, type SortOrder } from '../../domain/articles.js';
import type { ArticleFilter, ArticlePage, ArticleReadRepository, EnabledMetrics } from './articles.ports.js';

export interface ListArticlesInput {
  sort?: string;
  order?: SortOrder;
  favoritesOnly?: boolean;
  topicId?: string;
  tag?: string;
  source?: string;
  q?: string;
  limit?: number;
  offset?: number;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** GET /articles and GET /articles/{id}. */
export class ArticlesService {
  constructor(
    private readonly articles: ArticleReadRepository,
    private readonly metrics: EnabledMetrics,
  ) {}

  async list(
    input: ListArticlesInput,
    viewerId: string | null,
  ): Promise<ArticlePage & { limit: number; offset: number }> {
    const key = input.sort ?? 'scraped_at';
    // only a metric sort needs the catalog (metrics themselves are joined to it in the page query)
    const sort = resolveSort(key, isColumnSort(key) ? [] : await this.metrics.enabledKeys());
    const limit = Math.min(Math.max(input.limit ?? DEFAULT_LIMIT, 1), MAX_LIMIT);
    const offset = Math.max(input.offset ?? 0, 0);
    const filter: ArticleFilter = {
      topicId: input.topicId,
      tag: input.tag,
      source: input.source,
      q: input.q?.trim() || undefined,
      // a guest has no favorites to narrow to: the flag is ignored (docs/decisions.md)
      favoritesOf: input.favoritesOnly && viewerId ? viewerId : undefined,
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

  async get(id: string, viewerId: string | null): Promise<ArticleDetail> {
    const article = await this.articles.get(id, viewerId);
    if (!article) throw notFound('article');
    return article;
  }
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
