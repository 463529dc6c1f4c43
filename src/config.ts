/**
 * The one place that reads process.env. Each variable is declared once in `src/settings.ts` (type,
 * default, description); this file parses the environment against those declarations, applies the
 * defaults, checks what a schema cannot say (cross-variable rules, address lists), and shapes the
 * values the way the code uses them. A bad value stops start-up with the list of every problem.
 */
import { Value } from 'typebox/value';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';
import { ENV_SCHEMA, SETTINGS, type Env, type Setting } from './settings.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const typeOf = (name: string) =>
  ((SETTINGS as Record<string, Setting>)[name]!.schema as { type?: string }).type;

/** Strings to the declared types (numbers and booleans); what cannot be read is left for the schema to refuse. */
function coerce(raw: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(SETTINGS)) {
    const value = raw[key];
    if (value === undefined || value === '') continue;
    const type = typeOf(key);
    if (type === 'integer' || type === 'number')
      out[key] = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    else if (type === 'boolean')
      out[key] = ['1', 'true', 'yes'].includes(value.toLowerCase())
        ? true
        : ['0', 'false', 'no'].includes(value.toLowerCase())
          ? false
          : value;
    else out[key] = value;
  }
  return out;
}

/** The coerced environment with every declared default filled in. */
function withDefaults(env: Record<string, unknown>): Env {
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(SETTINGS as Record<string, Setting>))
    out[key] = env[key] ?? s.default;
  return out as Env;
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

export type Config = ReturnType<typeof shape>;

export function loadConfig(raw: NodeJS.ProcessEnv = process.env): Config {
  const coerced = coerce(raw);
  const problems = [...Value.Errors(ENV_SCHEMA, coerced)].map((e) => {
    const key = e.instancePath.replace(/^\//, '') || '(env)';
    return `${key}: ${e.message}`;
  });
  const e = withDefaults(coerced);
  // a user without MONITOR_API_KEY turns that store or the OTLP push off: the api role's start-up
  // lines say so (composition/monitoring.ts); only what can never work stops the start
  for (const key of MONITOR_URL_VARS) {
    const problem = monitorUrlProblem(e[key]);
    if (problem) problems.push(`${key}: ${problem}`);
  }
  if (e.EMBEDDING_RESPONSE_KEY === 'dense' && e.EMBEDDING_URL && coerced.EMBEDDING_DIMENSION === undefined) {
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
  return shape(e);
}

const noTrailingSlash = (u: string) => u.replace(/\/+$/, '');
const MB = 1024 * 1024;

/** The values as the code uses them: grouped by area, units converted, derived defaults filled. */
function shape(e: Env) {
  const monitorHost = e.MONITOR_URL ? new URL(e.MONITOR_URL).host : undefined;
  return {
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    api: { host: e.API_HOST, port: e.API_PORT },
    web: { host: e.HOST, port: e.PORT, apiUrl: e.API_URL ?? `http://127.0.0.1:${e.API_PORT}` },
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX ?? '',
    /** bytes */
    memoryCacheMaxBytes: e.MEMORY_CACHE_MAX_MB * MB,
    auth: {
      secret: e.AUTH_SECRET,
      tokenTtlSeconds: e.AUTH_TOKEN_TTL,
      adminEmail: e.ADMIN_EMAIL,
      adminPassword: e.ADMIN_PASSWORD,
      registration: e.REGISTRATION,
    },
    trustedProxies: list(e.TRUSTED_PROXIES),
    publicBaseUrl: noTrailingSlash(e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`),
    deploymentEnvironment: e.DEPLOYMENT_ENVIRONMENT,
    serviceName: e.SERVICE_NAME,
    monitor: {
      url: e.MONITOR_URL,
      apiKey: e.MONITOR_API_KEY,
      otlpUser: e.MONITOR_OTLP_USER,
      otlpEndpoint: e.MONITOR_OTLP_ENDPOINT,
      otlpTimeoutMs: e.MONITOR_OTLP_TIMEOUT_MS,
      metrics: { url: e.MONITOR_METRICS_URL, user: e.MONITOR_METRICS_USER },
      logs: { url: e.MONITOR_LOGS_URL, user: e.MONITOR_LOGS_USER },
      traces: { url: e.MONITOR_TRACES_URL, user: e.MONITOR_TRACES_USER },
      allowedHosts: [...(monitorHost ? [monitorHost] : []), ...list(e.MONITOR_ALLOWED_HOSTS)],
      timeoutMs: e.MONITOR_TIMEOUT_MS,
      /** bytes */
      cacheMaxBytes: e.MONITOR_CACHE_MAX_MB * MB,
    },
    prometheus: { enabled: e.METRICS_COLLECTOR, allowedNetworks: list(e.METRICS_ALLOWED_NETWORKS) },
    jobs: {
      viewCountFlushIntervalSeconds: e.VIEW_COUNT_FLUSH_INTERVAL,
      /** seconds after a view until its article's counter is moved into the stored count; 0: off */
      viewCountRecentFlushSeconds: e.VIEW_COUNT_RECENT_FLUSH_SECONDS,
      scraperCron: e.SCRAPER_CRON,
      weeklyReportCron: e.WEEKLY_REPORT_CRON,
      metricRefreshCron: e.METRIC_REFRESH_CRON,
      schedulerEnabled: e.SCHEDULER_ENABLED,
      shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
      retryLimit: e.JOB_RETRY_LIMIT,
      retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS,
      concurrency: e.JOB_CONCURRENCY,
      llmConcurrency: e.LLM_MAX_CONCURRENCY,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    webhooks: { attempts: e.WEBHOOK_ATTEMPTS, retryDelaySeconds: e.WEBHOOK_RETRY_DELAY_SECONDS },
    telegram: {
      botToken: e.TELEGRAM_BOT_TOKEN,
      apiUrl: noTrailingSlash(e.TELEGRAM_API_URL),
      opsChatId: e.TELEGRAM_OPS_CHAT_ID,
    },
    s3: {
      endpoint: e.S3_ENDPOINT,
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      publicUrl: e.S3_PUBLIC_URL,
    },
    fetch: { allowedHosts: list(e.FETCH_ALLOWED_HOSTS) },
    citations: {
      semanticScholarUrl: noTrailingSlash(e.SEMANTIC_SCHOLAR_API_URL),
      openAlexUrl: noTrailingSlash(e.OPENALEX_API_URL),
      crossrefUrl: noTrailingSlash(e.CROSSREF_API_URL),
      requestsPerSecond: e.CITATION_REQUESTS_PER_SECOND,
      semanticScholarApiKey: e.SEMANTIC_SCHOLAR_API_KEY,
      mailto: e.CITATION_MAILTO,
    },
    embedding: {
      url: e.EMBEDDING_URL === undefined ? undefined : noTrailingSlash(e.EMBEDDING_URL),
      apiKey: e.EMBEDDING_API_KEY,
      responseKey: e.EMBEDDING_RESPONSE_KEY,
      dimension: e.EMBEDDING_DIMENSION,
      timeoutSeconds: e.EMBEDDING_TIMEOUT,
      retries: e.EMBEDDING_RETRIES,
      retryDelaySeconds: e.EMBEDDING_RETRY_DELAY,
      rateLimit:
        e.EMBEDDING_RPM || e.EMBEDDING_TPM || e.EMBEDDING_RPD
          ? { rpm: e.EMBEDDING_RPM, tpm: e.EMBEDDING_TPM, rpd: e.EMBEDDING_RPD }
          : null,
    },
    tagSimilarityThreshold: e.TAG_SIMILARITY_THRESHOLD,
    rateLimits: {
      login: rule('login', e.RATE_LIMIT_LOGIN_PER_MINUTE, 60),
      register: rule('register', e.RATE_LIMIT_REGISTER_PER_HOUR, 3600),
      view: rule('view', e.RATE_LIMIT_VIEWS_PER_MINUTE, 60),
      search: rule('search', e.RATE_LIMIT_SEARCH_PER_MINUTE, 60),
      similar: rule('similar', e.RATE_LIMIT_SIMILAR_PER_MINUTE, 60),
      ask: rule('ask', e.RATE_LIMIT_ASK_PER_MINUTE, 60),
      reader: rule('reader', e.RATE_LIMIT_READER_PER_MINUTE, 60),
    },
  };
}
