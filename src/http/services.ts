import type { AuthService } from '../application/auth/auth.service.js';
import type { AccountsService } from '../application/auth/accounts.service.js';
import type { ArticlesService } from '../application/articles/articles.service.js';
import type { FavoritesService } from '../application/articles/favorites.service.js';
import type { FeedsService } from '../application/articles/feeds.service.js';
import type { ReadStateService } from '../application/articles/read-state.service.js';
import type { SimilarArticlesService } from '../application/articles/similar.service.js';
import type { WorksService } from '../application/works/works.service.js';
import type { WorkLinker } from '../application/works/work-linker.service.js';
import type { ViewsService } from '../application/views/views.service.js';
import type { CatalogService } from '../application/catalog/catalog.service.js';
import type { ProviderTestService } from '../application/catalog/provider-test.service.js';
import type { SourcesService } from '../application/catalog/sources.service.js';
import type { OpmlService } from '../application/catalog/opml.service.js';
import type { RateLimiter } from '../application/shared/rate-limit.js';
import type { LoginThrottle } from '../application/auth/login-throttle.js';
import type { TagGroupsService } from '../application/tags/tag-groups.service.js';
import type { TagsService } from '../application/tags/tags.service.js';
import type { TagCurationService } from '../application/tags/tag-curation.service.js';
import type { ScraperService } from '../application/pipeline/scraper.service.js';
import type { DeadJobsService } from '../application/pipeline/dead-jobs.service.js';
import type { ReportsService } from '../application/reports/reports.service.js';
import type { MonitoringService } from '../application/monitoring/monitoring.service.js';
import type { ServiceStatsService } from '../application/monitoring/service-stats.service.js';
import type { MetricCatalogService } from '../application/metrics/metric-catalog.service.js';
import type { RunsService } from '../application/runs/runs.service.js';
import type { JobsService } from '../application/runs/jobs.service.js';
import type { PrometheusEndpoint } from './routes/prometheus.routes.js';
import type { AskService } from '../application/ask/ask.service.js';
import type { UserPreferencesService } from '../application/users/user-preferences.service.js';
import type { AccessTokensService } from '../application/tokens/tokens.service.js';
import type { AssistantTools } from '../application/assistant/assistant-tools.js';
import type { RateLimitRules } from './plugins/rate-limit.js';
import type { GoogleReaderService } from '../application/greader/greader.service.js';
import type { WebhooksService } from '../application/webhooks/webhooks.service.js';

/**
 * The use cases the HTTP layer calls, and nothing else (what only the CLI, the cron or the tests
 * use stays on the container). Built by the composition root; each area adds its service.
 */
export interface Services {
  auth: AuthService;
  /** the admin's signed webhooks (/admin/webhooks) */
  webhooks: WebhooksService;
  /** personal access tokens: /user/tokens, and bearer credentials beside session tokens */
  tokens: AccessTokensService;
  /** the tools of the MCP server (/mcp), one use case each, traced from outside */
  assistant: AssistantTools;
  /** the Google Reader API (/accounts/ClientLogin, /reader/…) for phone and desktop feed apps */
  greader: GoogleReaderService;
  /** the admin Users page and password reset links */
  accounts: AccountsService;
  catalog: CatalogService;
  /** sources with their URL checked, preview and discovery, fetch history, "Fetch now" */
  sources: SourcesService;
  /** POST /admin/providers/{id}/test */
  providerTest: ProviderTestService;
  /** GET /admin/sources.opml, POST /admin/sources/opml */
  opml: OpmlService;
  rateLimiter: RateLimiter;
  /** sign-in attempts per account (POST /auth/login) */
  loginThrottle: LoginThrottle;
  scraper: ScraperService;
  /** article jobs that failed for good (GET /admin/jobs/dead) */
  deadJobs: DeadJobsService;
  articles: ArticlesService;
  favorites: FavoritesService;
  views: ViewsService;
  readState: ReadStateService;
  similar: SimilarArticlesService;
  /** GET /works/{id}; the admin's split and merge */
  works: WorksService;
  /** the work linker, for the backlog command (`works:link`) */
  workLinker: WorkLinker;
  feeds: FeedsService;
  /** POST /ask and the asker's own history */
  ask: AskService;
  reports: ReportsService;
  metricCatalog: MetricCatalogService;
  monitoring: MonitoringService;
  /** the monitoring page's Service tab (own database) */
  serviceStats: ServiceStatsService;
  preferences: UserPreferencesService;
  /** runs of every kind as records */
  runs: RunsService;
  /** the metric refresh and weekly reports as runs */
  jobs: JobsService;
  tagGroups: TagGroupsService;
  tags: TagsService;
  /** the admin tags table, bulk merge and move, suggestions with their articles */
  tagCuration: TagCurationService;
  /** readiness: every backing store answers */
  readiness(): Promise<{ database: boolean; cache: boolean }>;
}

export interface HttpOptions {
  trustedProxies: string[];
  /** bodies larger than this are refused with 413 */
  bodyLimitBytes?: number;
  exposeDocs?: boolean;
  /** per-IP limits by name (null = off) */
  rateLimits?: Partial<RateLimitRules>;
  /** extra static roots served by the api role (e.g. /media) */
  mediaDir?: string;
  /** the CLI's local admin channel (`Authorization: Local <secret>` from this machine); absent: off */
  localAdminSecret?: string;
  /** the service's version, as the MCP server names itself */
  version?: string;
  /** GET /metrics (METRICS_COLLECTOR); absent: 404 */
  prometheus?: PrometheusEndpoint;
}
