import type { AuthService } from '../application/auth/auth.service.js';
import type { ArticlesService } from '../application/articles/articles.service.js';
import type { FavoritesService } from '../application/articles/favorites.service.js';
import type { ViewsService } from '../application/views/views.service.js';
import type { CatalogService } from '../application/catalog/catalog.service.js';
import type { ProviderTestService } from '../application/catalog/provider-test.service.js';
import type { RateLimiter } from '../application/shared/rate-limit.js';
import type { TagGroupsService } from '../application/tags/tag-groups.service.js';
import type { TagsService } from '../application/tags/tags.service.js';
import type { ArticleTagger } from '../application/shared/tagging.js';
import type { EmbeddingProvider } from '../application/shared/embedding.js';
import type { ScraperService } from '../application/pipeline/scraper.service.js';
import type { ReportsService } from '../application/reports/reports.service.js';
import type { WeeklyReportService } from '../application/reports/weekly-report.service.js';
import type { MonitoringService } from '../application/monitoring/monitoring.service.js';
import type { MetricCatalogService } from '../application/metrics/metric-catalog.service.js';
import type { MetricRefreshService } from '../application/metrics/metric-refresh.service.js';
import type { UserPreferencesService } from '../application/users/user-preferences.service.js';

/**
 * The use cases the HTTP layer calls. Built by the composition root; each area adds its service.
 */
export interface Services {
  auth: AuthService;
  catalog: CatalogService;
  /** POST /admin/providers/{id}/test */
  providerTest: ProviderTestService;
  rateLimiter: RateLimiter;
  scraper: ScraperService;
  articles: ArticlesService;
  favorites: FavoritesService;
  views: ViewsService;
  reports: ReportsService;
  weeklyReports: WeeklyReportService;
  metricCatalog: MetricCatalogService;
  metricRefresh: MetricRefreshService;
  monitoring: MonitoringService;
  preferences: UserPreferencesService;
  tagGroups: TagGroupsService;
  tags: TagsService;
  /** the pipeline tags articles through this (tags area) */
  tagger: ArticleTagger;
  /** the configured embedding client (endpoint or built-in lexical) */
  embedder: EmbeddingProvider;
  /** readiness: every backing store answers */
  readiness(): Promise<{ database: boolean; cache: boolean }>;
}

export interface HttpOptions {
  trustedProxies: string[];
  /** bodies larger than this are refused with 413 */
  bodyLimitBytes?: number;
  exposeDocs?: boolean;
  /** per-IP limits by name (null = off) */
  rateLimits?: Partial<
    Record<'login' | 'register' | 'view', { name: string; max: number; windowSeconds: number } | null>
  >;
  /** extra static roots served by the api role (e.g. /media) */
  mediaDir?: string;
}
