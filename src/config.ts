/**
 * The one place that reads process.env. Every variable of the spec and of DESIGN.md §4 is declared
 * here, parsed once, and a bad value stops start-up with the list of every problem.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

const Str = (opts: { default?: string } = {}) => Type.Optional(Type.String({ minLength: 1, ...opts }));
const Url = () => Type.Optional(Type.String({ pattern: '^(https?|postgres(ql)?|redis|rediss|smtps?)://.+' }));
const Int = (min: number, max: number) => Type.Optional(Type.Integer({ minimum: min, maximum: max }));
const Num = (min: number, max: number) => Type.Optional(Type.Number({ minimum: min, maximum: max }));
const Bool = () => Type.Optional(Type.Boolean());

const EnvSchema = Type.Object({
  NODE_ENV: Type.Optional(Type.String()),
  LOG_LEVEL: Type.Optional(
    Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  ),
  API_PORT: Int(0, 65535),
  API_HOST: Str(),
  PORT: Int(0, 65535),
  HOST: Str(),
  API_URL: Url(),
  DATA_DIR: Str(),
  DATABASE_URL: Url(),
  REDIS_URL: Url(),
  REDIS_KEY_PREFIX: Str(),
  MEMORY_CACHE_MAX_MB: Int(1, 65_536),
  AUTH_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  AUTH_TOKEN_TTL: Int(60, 60 * 60 * 24 * 90),
  ADMIN_EMAIL: Type.Optional(Type.String({ format: 'email' })),
  ADMIN_PASSWORD: Str(),
  TRUSTED_PROXIES: Str(),
  REGISTRATION: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
  PUBLIC_BASE_URL: Url(),
  DEPLOYMENT_ENVIRONMENT: Type.Optional(Type.Union([Type.Literal('local'), Type.Literal('production')])),
  SERVICE_NAME: Str(),
  // monitoring (spec: Environment variables)
  MONITOR_URL: Url(),
  MONITOR_API_KEY: Str(),
  MONITOR_OTLP_USER: Str(),
  MONITOR_OTLP_ENDPOINT: Url(),
  MONITOR_OTLP_TIMEOUT_MS: Int(100, 120_000),
  MONITOR_METRICS_URL: Url(),
  MONITOR_METRICS_USER: Str(),
  MONITOR_LOGS_URL: Url(),
  MONITOR_LOGS_USER: Str(),
  MONITOR_TRACES_URL: Url(),
  MONITOR_TRACES_USER: Str(),
  MONITOR_ALLOWED_HOSTS: Type.Optional(Type.String()),
  MONITOR_TIMEOUT_MS: Int(100, 120_000),
  MONITOR_CACHE_MAX_MB: Int(1, 65_536),
  // jobs
  VIEW_COUNT_FLUSH_INTERVAL: Int(1, 86_400 * 7),
  SCRAPER_CRON: Str(),
  WEEKLY_REPORT_CRON: Str(),
  METRIC_REFRESH_CRON: Str(),
  SCHEDULER_ENABLED: Bool(),
  SHUTDOWN_GRACE_SECONDS: Int(1, 3600),
  JOB_RETRY_LIMIT: Int(0, 50),
  JOB_RETRY_DELAY_SECONDS: Int(1, 3600),
  JOB_CONCURRENCY: Int(1, 256),
  METRICS_COLLECTOR: Bool(),
  METRICS_ALLOWED_NETWORKS: Str(),
  // outbound services
  SMTP_URL: Url(),
  MAIL_FROM: Str(),
  TELEGRAM_BOT_TOKEN: Str(),
  TELEGRAM_API_URL: Url(),
  TELEGRAM_OPS_CHAT_ID: Str(),
  S3_ENDPOINT: Url(),
  S3_BUCKET: Str(),
  S3_REGION: Str(),
  S3_ACCESS_KEY_ID: Str(),
  S3_SECRET_ACCESS_KEY: Str(),
  S3_PUBLIC_URL: Url(),
  SEMANTIC_SCHOLAR_API_URL: Url(),
  OPENALEX_API_URL: Url(),
  CROSSREF_API_URL: Url(),
  CITATION_REQUESTS_PER_SECOND: Int(1, 1000),
  SEMANTIC_SCHOLAR_API_KEY: Str(),
  CITATION_MAILTO: Type.Optional(Type.String({ format: 'email' })),
  // outbound fetches of URLs from feed content (SSRF guard)
  FETCH_ALLOWED_HOSTS: Type.Optional(Type.String()),
  // embeddings (DESIGN.md §4)
  EMBEDDING_URL: Url(),
  EMBEDDING_API_KEY: Str(),
  EMBEDDING_RESPONSE_KEY: Type.Optional(Type.Union([Type.Literal('dense'), Type.Literal('sparse')])),
  EMBEDDING_DIMENSION: Int(1, 65_536),
  EMBEDDING_TIMEOUT: Num(0.001, 3600),
  EMBEDDING_RETRIES: Int(0, 20),
  EMBEDDING_RETRY_DELAY: Num(0, 600),
  EMBEDDING_RPM: Int(1, 1_000_000),
  EMBEDDING_TPM: Int(1, 1_000_000_000),
  EMBEDDING_RPD: Int(1, 100_000_000),
  TAG_SIMILARITY_THRESHOLD: Num(0, 1),
  // per-IP rate limits; 0 turns one off
  RATE_LIMIT_LOGIN_PER_MINUTE: Int(0, 100_000),
  RATE_LIMIT_REGISTER_PER_HOUR: Int(0, 100_000),
  RATE_LIMIT_VIEWS_PER_MINUTE: Int(0, 1_000_000),
});

type Env = Static<typeof EnvSchema>;

export interface Config {
  nodeEnv: string;
  logLevel: string;
  api: { host: string; port: number };
  web: { host: string; port: number; apiUrl: string };
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** prefix of every key, so several deployments can share one Redis */
  redisKeyPrefix: string;
  /** size cap of the in-memory cache (no REDIS_URL), bytes */
  memoryCacheMaxBytes: number;
  auth: {
    secret: string | undefined;
    tokenTtlSeconds: number;
    adminEmail: string | undefined;
    adminPassword: string | undefined;
    /** open: anyone may sign up; closed: accounts are made by an admin (CLI, ADMIN_EMAIL) only */
    registration: 'open' | 'closed';
  };
  trustedProxies: string[];
  publicBaseUrl: string;
  deploymentEnvironment: 'local' | 'production';
  serviceName: string;
  monitor: {
    url: string | undefined;
    apiKey: string | undefined;
    otlpUser: string | undefined;
    otlpEndpoint: string | undefined;
    /** one OTLP export request, retries included */
    otlpTimeoutMs: number;
    metrics: { url: string | undefined; user: string | undefined };
    logs: { url: string | undefined; user: string | undefined };
    traces: { url: string | undefined; user: string | undefined };
    allowedHosts: string[];
    timeoutMs: number;
    /** the last good answers kept for rate-limited upstreams, bytes */
    cacheMaxBytes: number;
  };
  /** GET /metrics on the api role (Prometheus text format), answered only to these networks */
  prometheus: { enabled: boolean; allowedNetworks: string[] };
  jobs: {
    viewCountFlushIntervalSeconds: number;
    scraperCron: string;
    weeklyReportCron: string;
    metricRefreshCron: string;
    schedulerEnabled: boolean;
    /** SIGTERM: how long running jobs get to finish before they are handed back to the queue */
    shutdownGraceSeconds: number;
    /** retries of a job after a transient failure (exponential backoff from retryDelaySeconds) */
    retryLimit: number;
    retryDelaySeconds: number;
    /** article flows one process runs at once */
    concurrency: number;
  };
  mail: { smtpUrl: string | undefined; from: string };
  telegram: { botToken: string | undefined; apiUrl: string; opsChatId: string | undefined };
  s3: {
    endpoint: string | undefined;
    bucket: string | undefined;
    region: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    publicUrl: string | undefined;
  };
  fetch: {
    /** hosts, IPs and CIDRs that URLs from feed content may reach even when not public */
    allowedHosts: string[];
  };
  citations: {
    semanticScholarUrl: string;
    openAlexUrl: string;
    crossrefUrl: string;
    /** sent as x-api-key to Semantic Scholar */
    semanticScholarApiKey: string | undefined;
    /** contact address: OpenAlex `mailto` parameter, Crossref User-Agent (polite pools) */
    mailto: string | undefined;
    /** per source: a small limiter keeps each API under its public rate limit */
    requestsPerSecond: number;
  };
  embedding: {
    url: string | undefined;
    apiKey: string | undefined;
    responseKey: 'dense' | 'sparse';
    dimension: number;
    timeoutSeconds: number;
    retries: number;
    retryDelaySeconds: number;
    rateLimit: { rpm?: number; tpm?: number; rpd?: number } | null;
  };
  tagSimilarityThreshold: number;
  rateLimits: Record<
    'login' | 'register' | 'view',
    { name: string; max: number; windowSeconds: number } | null
  >;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const NUMERIC = new Set(
  Object.entries(EnvSchema.properties)
    .filter(([, s]) => ['integer', 'number'].includes((s as { type?: string }).type ?? ''))
    .map(([k]) => k),
);
const BOOLEAN = new Set(
  Object.entries(EnvSchema.properties)
    .filter(([, s]) => (s as { type?: string }).type === 'boolean')
    .map(([k]) => k),
);

function coerce(raw: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = raw[key];
    if (value === undefined || value === '') continue;
    if (NUMERIC.has(key)) out[key] = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    else if (BOOLEAN.has(key))
      out[key] = ['1', 'true', 'yes'].includes(value.toLowerCase())
        ? true
        : ['0', 'false', 'no'].includes(value.toLowerCase())
          ? false
          : value;
    else out[key] = value;
  }
  return out;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** what proxy-addr compiles: an address, address/prefix, address/netmask or a named range */
function validTrustEntry(entry: string): boolean {
  try {
    proxyAddr.compile([entry]);
    return true;
  } catch {
    return false;
  }
}

/** A FETCH_ALLOWED_HOSTS entry that is neither a host name, an IP nor a CIDR: why, else null. */
function invalidAllowEntry(entry: string): string | null {
  if (entry.includes('/')) return ipaddr.isValidCIDR(entry) ? null : `${entry} is not a valid CIDR`;
  return ipaddr.isValid(entry) || /^[a-z0-9.-]+$/i.test(entry) ? null : `${entry} is not a host, IP or CIDR`;
}

function isAddressOrCidr(v: string): boolean {
  if (v.includes('/')) {
    try {
      ipaddr.parseCIDR(v);
      return true;
    } catch {
      return false;
    }
  }
  return ipaddr.isValid(v);
}

const MONITOR_URL_VARS = [
  'MONITOR_URL',
  'MONITOR_METRICS_URL',
  'MONITOR_LOGS_URL',
  'MONITOR_TRACES_URL',
  'MONITOR_OTLP_ENDPOINT',
] as const;

/**
 * A monitoring URL the proxy or the exporter could not use as written: not http(s), unreadable,
 * credentials in it (they go in MONITOR_*_USER and MONITOR_API_KEY), or a query or fragment (the
 * fixed API paths are appended to the URL's path, its route prefix).
 */
function monitorUrlProblem(v: string | undefined): string | null {
  if (v === undefined) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (u.username || u.password)
    return 'must not carry credentials: put the user in the MONITOR_*_USER variable and the password in MONITOR_API_KEY';
  if (u.search || u.hash)
    return 'must not carry a query or fragment: give the base URL with its route prefix, e.g. http://127.0.0.1:9090/prom';
  return null;
}

const rule = (name: string, max: number, windowSeconds: number) =>
  max > 0 ? { name, max, windowSeconds } : null;

export function loadConfig(raw: NodeJS.ProcessEnv = process.env): Config {
  const env = coerce(raw);
  const problems = [...Value.Errors(EnvSchema, env)].map((e) => {
    const key = e.instancePath.replace(/^\//, '') || '(env)';
    return `${key}: ${e.message}`;
  });
  const e = env as Env;
  // a user without MONITOR_API_KEY turns that store or the OTLP push off: the api role's start-up
  // lines say so (composition/monitoring.ts); only what can never work stops the start
  for (const key of MONITOR_URL_VARS) {
    const problem = monitorUrlProblem(e[key]);
    if (problem) problems.push(`${key}: ${problem}`);
  }
  if ((e.EMBEDDING_RESPONSE_KEY ?? 'dense') === 'dense' && e.EMBEDDING_URL && !e.EMBEDDING_DIMENSION) {
    problems.push('EMBEDDING_DIMENSION: required when EMBEDDING_URL is set with the dense response key');
  }
  // the password policy of sign-up (AuthService.checkPassword; the common-password list is checked
  // when the account is made, in createContainer)
  if (e.ADMIN_PASSWORD !== undefined) {
    if ([...e.ADMIN_PASSWORD].length < 10) problems.push('ADMIN_PASSWORD: needs at least 10 characters');
    else if (!e.ADMIN_PASSWORD.trim()) problems.push('ADMIN_PASSWORD: cannot be only whitespace');
  }
  if (e.S3_ENDPOINT && !e.S3_BUCKET) problems.push('S3_BUCKET: required when S3_ENDPOINT is set');
  if (e.S3_ENDPOINT && Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
    problems.push('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both or neither');
  for (const entry of list(e.TRUSTED_PROXIES))
    if (!validTrustEntry(entry))
      problems.push(
        `TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
      );
  for (const entry of list(e.FETCH_ALLOWED_HOSTS)) {
    const problem = invalidAllowEntry(entry);
    if (problem) problems.push(`FETCH_ALLOWED_HOSTS: ${problem}`);
  }
  const badNetworks = list(e.METRICS_ALLOWED_NETWORKS).filter((n) => !isAddressOrCidr(n));
  if (badNetworks.length)
    problems.push(`METRICS_ALLOWED_NETWORKS: not an address or CIDR: ${badNetworks.join(', ')}`);
  if (problems.length) throw new ConfigError(problems);

  const apiPort = e.API_PORT ?? 8000;
  const rateLimit =
    e.EMBEDDING_RPM || e.EMBEDDING_TPM || e.EMBEDDING_RPD
      ? { rpm: e.EMBEDDING_RPM, tpm: e.EMBEDDING_TPM, rpd: e.EMBEDDING_RPD }
      : null;
  const monitorHost = e.MONITOR_URL ? new URL(e.MONITOR_URL).host : undefined;
  return {
    nodeEnv: e.NODE_ENV ?? 'development',
    logLevel: e.LOG_LEVEL ?? 'info',
    api: { host: e.API_HOST ?? '0.0.0.0', port: apiPort },
    web: {
      host: e.HOST ?? '0.0.0.0',
      port: e.PORT ?? 3000,
      apiUrl: e.API_URL ?? `http://127.0.0.1:${apiPort}`,
    },
    dataDir: e.DATA_DIR ?? './data',
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX ?? '',
    memoryCacheMaxBytes: (e.MEMORY_CACHE_MAX_MB ?? 64) * 1024 * 1024,
    auth: {
      secret: e.AUTH_SECRET,
      tokenTtlSeconds: e.AUTH_TOKEN_TTL ?? 60 * 60 * 24 * 7,
      adminEmail: e.ADMIN_EMAIL,
      adminPassword: e.ADMIN_PASSWORD,
      registration: e.REGISTRATION ?? 'open',
    },
    trustedProxies: e.TRUSTED_PROXIES ? list(e.TRUSTED_PROXIES) : ['loopback'],
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT ?? 3000}`).replace(/\/+$/, ''),
    deploymentEnvironment: e.DEPLOYMENT_ENVIRONMENT ?? 'local',
    serviceName: e.SERVICE_NAME ?? 'article-intel',
    monitor: {
      url: e.MONITOR_URL,
      apiKey: e.MONITOR_API_KEY,
      otlpUser: e.MONITOR_OTLP_USER,
      otlpEndpoint: e.MONITOR_OTLP_ENDPOINT,
      otlpTimeoutMs: e.MONITOR_OTLP_TIMEOUT_MS ?? 10_000,
      metrics: { url: e.MONITOR_METRICS_URL, user: e.MONITOR_METRICS_USER },
      logs: { url: e.MONITOR_LOGS_URL, user: e.MONITOR_LOGS_USER },
      traces: { url: e.MONITOR_TRACES_URL, user: e.MONITOR_TRACES_USER },
      allowedHosts: [...(monitorHost ? [monitorHost] : []), ...list(e.MONITOR_ALLOWED_HOSTS)],
      timeoutMs: e.MONITOR_TIMEOUT_MS ?? 8000,
      cacheMaxBytes: (e.MONITOR_CACHE_MAX_MB ?? 64) * 1024 * 1024,
    },
    prometheus: {
      enabled: e.METRICS_COLLECTOR ?? false,
      allowedNetworks: e.METRICS_ALLOWED_NETWORKS
        ? list(e.METRICS_ALLOWED_NETWORKS)
        : ['127.0.0.0/8', '::1/128'],
    },
    jobs: {
      viewCountFlushIntervalSeconds: e.VIEW_COUNT_FLUSH_INTERVAL ?? 900,
      scraperCron: e.SCRAPER_CRON ?? '0 * * * *',
      weeklyReportCron: e.WEEKLY_REPORT_CRON ?? '0 8 * * 1',
      metricRefreshCron: e.METRIC_REFRESH_CRON ?? '0 3 * * *',
      schedulerEnabled: e.SCHEDULER_ENABLED ?? true,
      shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS ?? 30,
      retryLimit: e.JOB_RETRY_LIMIT ?? 3,
      retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS ?? 5,
      concurrency: e.JOB_CONCURRENCY ?? 16,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? 'Article Intelligence <no-reply@localhost>' },
    telegram: {
      botToken: e.TELEGRAM_BOT_TOKEN,
      apiUrl: (e.TELEGRAM_API_URL ?? 'https://api.telegram.org').replace(/\/+$/, ''),
      opsChatId: e.TELEGRAM_OPS_CHAT_ID,
    },
    s3: {
      endpoint: e.S3_ENDPOINT,
      bucket: e.S3_BUCKET,
      region: e.S3_REGION ?? 'us-east-1',
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      publicUrl: e.S3_PUBLIC_URL,
    },
    fetch: { allowedHosts: list(e.FETCH_ALLOWED_HOSTS) },
    citations: {
      semanticScholarUrl: (e.SEMANTIC_SCHOLAR_API_URL ?? 'https://api.semanticscholar.org').replace(
        /\/+$/,
        '',
      ),
      openAlexUrl: (e.OPENALEX_API_URL ?? 'https://api.openalex.org').replace(/\/+$/, ''),
      crossrefUrl: (e.CROSSREF_API_URL ?? 'https://api.crossref.org').replace(/\/+$/, ''),
      requestsPerSecond: e.CITATION_REQUESTS_PER_SECOND ?? 1,
      semanticScholarApiKey: e.SEMANTIC_SCHOLAR_API_KEY,
      mailto: e.CITATION_MAILTO,
    },
    embedding: {
      url: e.EMBEDDING_URL?.replace(/\/+$/, ''),
      apiKey: e.EMBEDDING_API_KEY,
      responseKey: e.EMBEDDING_RESPONSE_KEY ?? 'dense',
      dimension: e.EMBEDDING_DIMENSION ?? 384,
      timeoutSeconds: e.EMBEDDING_TIMEOUT ?? 60,
      retries: e.EMBEDDING_RETRIES ?? 3,
      retryDelaySeconds: e.EMBEDDING_RETRY_DELAY ?? 2,
      rateLimit,
    },
    tagSimilarityThreshold: e.TAG_SIMILARITY_THRESHOLD ?? 0.85,
    rateLimits: {
      login: rule('login', e.RATE_LIMIT_LOGIN_PER_MINUTE ?? 10, 60),
      register: rule('register', e.RATE_LIMIT_REGISTER_PER_HOUR ?? 20, 3600),
      view: rule('view', e.RATE_LIMIT_VIEWS_PER_MINUTE ?? 300, 60),
    },
  };
}
