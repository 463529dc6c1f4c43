/**
 * Every environment variable the service reads, each declared once: its type (a typebox schema),
 * its default and what it is for. `src/config.ts` parses `process.env` against these declarations
 * and shapes the result; the README's configuration table is generated from them
 * (`npm run gen:config`; `npm run config:check`, part of `npm run check`, fails when it is stale).
 */
import { Type, type Static, type TSchema } from 'typebox';

export interface Setting<S extends TSchema = TSchema, D = unknown> {
  schema: S;
  /** used when the variable is unset or empty; `undefined`: none (the feature is off or derived) */
  default: D;
  /** the README's "default" cell when the default is derived or not a plain value */
  shown?: string;
  doc: string;
  section: Section;
}

export type Section =
  | 'Processes and storage'
  | 'Accounts and requests'
  | 'Jobs'
  | 'Sources and citations'
  | 'Embeddings and tags'
  | 'Delivery'
  | 'Monitoring and telemetry';

type Opts<D> = { default?: D; shown?: string; section: Section };

function setting<S extends TSchema, D extends Static<S> | undefined = undefined>(
  schema: S,
  doc: string,
  opts: Opts<D>,
): Setting<S, D> {
  return { schema, default: opts.default as D, shown: opts.shown, doc, section: opts.section };
}

const URL_PATTERN = '^(https?|postgres(ql)?|redis|rediss|smtps?)://.+';

const str = <D extends string | undefined = undefined>(doc: string, o: Opts<D>) =>
  setting(Type.String({ minLength: 1 }), doc, o);
/** may be empty on purpose (a list that is empty by default) */
const list = <D extends string | undefined = undefined>(doc: string, o: Opts<D>) =>
  setting(Type.String(), doc, o);
const url = <D extends string | undefined = undefined>(doc: string, o: Opts<D>) =>
  setting(Type.String({ pattern: URL_PATTERN }), doc, o);
const int = <D extends number | undefined = undefined>(min: number, max: number, doc: string, o: Opts<D>) =>
  setting(Type.Integer({ minimum: min, maximum: max }), doc, o);
const num = <D extends number | undefined = undefined>(min: number, max: number, doc: string, o: Opts<D>) =>
  setting(Type.Number({ minimum: min, maximum: max }), doc, o);
const bool = <D extends boolean | undefined = undefined>(doc: string, o: Opts<D>) =>
  setting(Type.Boolean(), doc, o);
const email = (doc: string, o: Opts<undefined>) => setting(Type.String({ format: 'email' }), doc, o);
function oneOf<const V extends string[], D extends V[number] | undefined = undefined>(
  values: readonly [...V],
  doc: string,
  o: Opts<D>,
) {
  return setting(Type.Enum(values), doc, o);
}

const P = { section: 'Processes and storage' } as const;
const A = { section: 'Accounts and requests' } as const;
const J = { section: 'Jobs' } as const;
const S = { section: 'Sources and citations' } as const;
const E = { section: 'Embeddings and tags' } as const;
const D = { section: 'Delivery' } as const;
const M = { section: 'Monitoring and telemetry' } as const;

export const SETTINGS = {
  // processes and storage
  API_PORT: int(0, 65535, 'port of the api role', { ...P, default: 8000 }),
  API_HOST: str('address the api role listens on', { ...P, default: '0.0.0.0' }),
  PORT: int(0, 65535, 'port of the web role (the single-page app and `/api/proxy`)', { ...P, default: 3000 }),
  HOST: str('address the web role listens on', { ...P, default: '0.0.0.0' }),
  API_URL: url('the api the web role forwards to', {
    ...P,
    shown: '`http://127.0.0.1:$API_PORT`',
  }),
  DATA_DIR: str('PGlite data, the generated auth secret, media', { ...P, default: './data' }),
  DATABASE_URL: url(
    "PostgreSQL (node-postgres) instead of PGlite; behind a pooler, session mode or PgBouncer 1.21+ with `max_prepared_statements` keeps the articles list's named statements (in transaction mode before 1.21 the service notices and sends them unnamed, docs/decisions/0161-list-statements-kept-per-connection.md)",
    P,
  ),
  REDIS_URL: url('Redis instead of the in-memory cache', P),
  REDIS_KEY_PREFIX: str('prefix of every Redis key, so several deployments can share one Redis', {
    ...P,
    shown: '(none)',
  }),
  MEMORY_CACHE_MAX_MB: int(
    1,
    65_536,
    'size cap of the in-memory cache (without `REDIS_URL`): de-duplication and rate-limit keys are evicted least recently used first, view counters never',
    { ...P, default: 64 },
  ),
  PUBLIC_BASE_URL: url('site root for e-mail links and media URLs', {
    ...P,
    shown: '`http://localhost:$PORT`',
  }),
  LOG_LEVEL: oneOf(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    'pino level; one readable line per event on a terminal, JSON lines otherwise; request lines (`incoming request`, `request completed`) only at `debug`',
    { ...P, default: 'info' },
  ),
  NODE_ENV: setting(Type.String(), '`test` under the test runner (the console then stays JSON)', {
    ...P,
    default: 'development',
  }),

  // accounts and requests
  AUTH_SECRET: setting(
    Type.String({ minLength: 32 }),
    'HS256 key of the bearer tokens (at least 32 characters)',
    {
      ...A,
      shown: 'generated into `DATA_DIR`',
    },
  ),
  AUTH_TOKEN_TTL: int(60, 60 * 60 * 24 * 90, 'bearer token lifetime in seconds', { ...A, default: 604_800 }),
  ADMIN_EMAIL: email('create (or promote) this admin at start, with `ADMIN_PASSWORD`', A),
  ADMIN_PASSWORD: str(
    "the admin's password; it follows the sign-up policy (at least 10 characters, not only whitespace, not a common password), else the start fails with exit 1",
    A,
  ),
  REGISTRATION: oneOf(
    ['open', 'closed'],
    '`open`: anyone may sign up; `closed`: accounts are created by an admin only (`ADMIN_EMAIL`, `cli user:create`), and the sign-up page says so',
    { ...A, default: 'open' },
  ),
  TRUSTED_PROXIES: str(
    'proxies whose `X-Forwarded-For` entries are believed: comma-separated IP addresses, CIDR ranges (`10.0.0.0/8`) or `loopback`, `linklocal`, `uniquelocal`; the client is the first address from the right that is not one of them',
    { ...A, default: 'loopback' },
  ),
  RATE_LIMIT_LOGIN_PER_MINUTE: int(0, 100_000, 'sign-in attempts per client address per minute (0: off)', {
    ...A,
    default: 10,
  }),
  RATE_LIMIT_REGISTER_PER_HOUR: int(0, 100_000, 'sign-ups per client address per hour (0: off)', {
    ...A,
    default: 20,
  }),
  RATE_LIMIT_VIEWS_PER_MINUTE: int(0, 1_000_000, 'counted views per client address per minute (0: off)', {
    ...A,
    default: 300,
  }),

  RATE_LIMIT_SEARCH_PER_MINUTE: int(
    0,
    1_000_000,
    'searches (`GET /articles` with `q`) per client address per minute (0: off); past it 429 `rate_limited` with `Retry-After`; browsing without `q` is not counted',
    { ...A, default: 120 },
  ),
  RATE_LIMIT_SIMILAR_PER_MINUTE: int(
    0,
    1_000_000,
    'similar-article lookups per client address per minute (0: off)',
    {
      ...A,
      default: 120,
    },
  ),
  RATE_LIMIT_ASK_PER_MINUTE: int(
    0,
    100_000,
    'questions (`POST /ask`) per signed-in user per minute (0: off); past it 429 `rate_limited` with `Retry-After`',
    { ...A, default: 10 },
  ),
  RATE_LIMIT_READER_PER_MINUTE: int(
    0,
    1_000_000,
    'Google Reader API calls (`/reader/…`, phone and desktop feed apps) per signed-in user per minute (0: off); past it 429 `rate_limited` with `Retry-After`',
    { ...A, default: 600 },
  ),

  // jobs
  SCHEDULER_ENABLED: bool('run the cron schedules in this process (worker role)', { ...J, default: true }),
  VIEW_COUNT_FLUSH_INTERVAL: int(1, 86_400 * 7, 'seconds between view-count flushes', { ...J, default: 900 }),
  VIEW_COUNT_RECENT_FLUSH_SECONDS: int(
    0,
    3600,
    "seconds after a view until the viewed article's counter is moved into the stored count (so sorting by views follows within seconds); `0`: only the periodic flush",
    { ...J, default: 2 },
  ),
  SCRAPER_CRON: str(
    'scraper schedule: each tick reads the sources that are due by their own fetch interval (see "Sources")',
    { ...J, default: '0 * * * *' },
  ),
  WEEKLY_REPORT_CRON: str('weekly report schedule', { ...J, default: '0 8 * * 1' }),
  METRIC_REFRESH_CRON: str('daily refresh of missing or day-old citation counts', {
    ...J,
    default: '0 3 * * *',
  }),
  SHUTDOWN_GRACE_SECONDS: int(
    1,
    3600,
    "on SIGTERM or SIGINT (Ctrl-C), how long a scrape run still reading its feeds and pages and the running jobs get to finish, together: then the run's reads are abandoned (it ends interrupted, and the next run reads those sources) and unfinished jobs are handed back to the queue; the signal's one log line names the runs and jobs it waits for and the longest the stop takes (15 s more); a second Ctrl-C stops at once",
    { ...J, default: 30 },
  ),
  JOB_CONCURRENCY: int(
    1,
    256,
    "article jobs one process works on at once: their database writes share statements, so more in flight means fewer round trips an article; past the model provider's limit they wait for a slot, inside the model timeout (with a slow local model, keep it near LLM_MAX_CONCURRENCY)",
    { ...J, default: 64 },
  ),
  LLM_MAX_CONCURRENCY: int(
    1,
    256,
    'requests one process sends a model provider at once, at most; fewer while the provider answers 429 (the limit halves, new requests wait for its Retry-After, then it grows again), so a rate limit slows the article jobs instead of failing them',
    { ...J, default: 16 },
  ),
  JOB_RETRY_LIMIT: int(0, 50, 'retries of a job after a transient failure (model or database busy or away)', {
    ...J,
    default: 3,
  }),
  JOB_RETRY_DELAY_SECONDS: int(1, 3600, 'first retry delay in seconds, doubled per retry', {
    ...J,
    default: 5,
  }),

  // sources and citations
  FETCH_ALLOWED_HOSTS: list(
    "comma-separated hosts, IPs or CIDRs that URLs taken from feed content (item links, a source's redirect to another host or port, feeds of an imported OPML file) may reach although they are not public addresses; everything else on loopback, private, link-local, unique-local, CGNAT or metadata addresses is refused",
    { ...S, shown: '(empty)' },
  ),
  SEMANTIC_SCHOLAR_API_URL: url('Semantic Scholar API (citation counts, first in priority)', {
    ...S,
    default: 'https://api.semanticscholar.org',
  }),
  OPENALEX_API_URL: url('OpenAlex API (citation counts, second)', {
    ...S,
    default: 'https://api.openalex.org',
  }),
  CROSSREF_API_URL: url('Crossref API (citation counts, third)', {
    ...S,
    default: 'https://api.crossref.org',
  }),
  CITATION_REQUESTS_PER_SECOND: int(
    1,
    1000,
    'requests per second to each citation API (one limiter per source)',
    {
      ...S,
      default: 1,
    },
  ),
  SEMANTIC_SCHOLAR_API_KEY: str(
    'Semantic Scholar API key, sent as `x-api-key` (unkeyed calls share a small public rate limit)',
    S,
  ),
  CITATION_MAILTO: email(
    'contact e-mail for the polite pools: OpenAlex `mailto` parameter, `User-Agent: article-intel/<version> (mailto:…)` on citation calls (Crossref)',
    S,
  ),

  // embeddings and tags
  EMBEDDING_URL: url(
    'embedding endpoint (`POST {EMBEDDING_URL}/embed`); without it a built-in lexical embedder runs',
    {
      ...E,
      shown: 'built-in lexical embedder',
    },
  ),
  EMBEDDING_API_KEY: str('Bearer key of the embedding endpoint', E),
  EMBEDDING_RESPONSE_KEY: oneOf(['dense', 'sparse'], 'which vectors the endpoint answers', {
    ...E,
    default: 'dense',
  }),
  EMBEDDING_DIMENSION: int(1, 65_536, 'dense dimension (required with `EMBEDDING_URL` and `dense`)', {
    ...E,
    default: 384,
  }),
  EMBEDDING_TIMEOUT: num(0.001, 3600, 'seconds per embedding call', { ...E, default: 60 }),
  EMBEDDING_RETRIES: int(0, 20, 'retries of an embedding call on a connection error', { ...E, default: 3 }),
  EMBEDDING_RETRY_DELAY: num(0, 600, 'seconds before the first retry, doubled per retry', {
    ...E,
    default: 2,
  }),
  EMBEDDING_RPM: int(1, 1_000_000, 'embedding requests per minute (calls over it wait)', E),
  EMBEDDING_TPM: int(1, 1_000_000_000, 'embedding tokens per minute', E),
  EMBEDDING_RPD: int(1, 100_000_000, 'embedding requests per day', E),
  TAG_SIMILARITY_THRESHOLD: num(0, 1, 'cosine similarity from which a new tag is suggested as a synonym', {
    ...E,
    default: 0.85,
  }),

  // delivery
  SMTP_URL: url('SMTP server for e-mail delivery (`smtp://` or `smtps://`)', D),
  MAIL_FROM: str('sender of e-mails', { ...D, default: 'Article Intelligence <no-reply@localhost>' }),
  TELEGRAM_BOT_TOKEN: str('Telegram bot token for report delivery', D),
  TELEGRAM_API_URL: url('Telegram Bot API', { ...D, default: 'https://api.telegram.org' }),
  TELEGRAM_OPS_CHAT_ID: str('chat that gets pipeline-completed notices', D),
  S3_ENDPOINT: url(
    'store covers in an S3-compatible bucket (path-style, SigV4) instead of `DATA_DIR/media`',
    D,
  ),
  S3_BUCKET: str('the bucket (required with `S3_ENDPOINT`)', D),
  S3_REGION: str("the bucket's region", { ...D, default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: str('S3 access key (set both or neither)', D),
  S3_SECRET_ACCESS_KEY: str('S3 secret key', D),
  S3_PUBLIC_URL: url('public address of the bucket; without it covers are served through `/media`', D),
  WEBHOOK_ATTEMPTS: int(1, 20, 'attempts of a webhook delivery that gets no answer, a 5xx or a 429', {
    ...D,
    default: 5,
  }),
  WEBHOOK_RETRY_DELAY_SECONDS: int(
    1,
    3600,
    'first retry delay of a webhook delivery in seconds, doubled per retry (at most 5 minutes)',
    { ...D, default: 10 },
  ),

  // monitoring and telemetry
  DEPLOYMENT_ENVIRONMENT: oneOf(['local', 'production'], 'the `deployment.environment` resource attribute', {
    ...M,
    default: 'local',
  }),
  SERVICE_NAME: str('the `service.name` resource attribute', { ...M, default: 'article-intel' }),
  MONITOR_METRICS_URL: url(
    'the metrics store the dashboard reads (Prometheus API): the address a Grafana data source would use, route prefix included ("Connecting Prometheus, Loki and Tempo")',
    M,
  ),
  MONITOR_LOGS_URL: url('the log store the dashboard reads (Loki API), route prefix included', M),
  MONITOR_TRACES_URL: url('the trace store the dashboard reads (Tempo API), route prefix included', M),
  MONITOR_METRICS_USER: str(
    'Basic auth user of the metrics store (`user:MONITOR_API_KEY`); none: no auth',
    M,
  ),
  MONITOR_LOGS_USER: str('Basic auth user of the log store', M),
  MONITOR_TRACES_USER: str('Basic auth user of the trace store', M),
  MONITOR_API_KEY: str('the password of the Basic auth users above and of `MONITOR_OTLP_USER`', M),
  MONITOR_OTLP_ENDPOINT: url('push traces, logs and metrics over OTLP/HTTP to this endpoint', M),
  MONITOR_OTLP_USER: str('Basic auth user of the OTLP push (with `MONITOR_API_KEY`); none: no auth', M),
  MONITOR_OTLP_TIMEOUT_MS: int(
    100,
    120_000,
    'one OTLP export request (traces, logs, metrics), retries included',
    {
      ...M,
      default: 10_000,
    },
  ),
  MONITOR_URL: url("a host the monitoring proxy may call besides each store URL's own", M),
  MONITOR_ALLOWED_HOSTS: list('more hosts the monitoring proxy may call (comma-separated)', M),
  MONITOR_TIMEOUT_MS: int(100, 120_000, 'one call of the monitoring proxy to a store', {
    ...M,
    default: 8000,
  }),
  MONITOR_CACHE_MAX_MB: int(
    1,
    65_536,
    "memory for the monitoring proxy's last good answers (served while a store rate-limits), least recently used dropped first",
    { ...M, default: 64 },
  ),
  METRICS_COLLECTOR: bool(
    "serve the pipeline's OpenTelemetry instruments at `GET /metrics` on the api role (Prometheus text format)",
    { ...M, default: false },
  ),
  METRICS_ALLOWED_NETWORKS: str(
    "addresses or CIDRs that may read `/metrics` (the socket's address; X-Forwarded-For is not believed); others get 403",
    { ...M, default: '127.0.0.0/8,::1/128' },
  ),
} satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

type ValueOf<X> =
  X extends Setting<infer S, infer D> ? (undefined extends D ? Static<S> | undefined : Static<S>) : never;

/** The parsed environment, defaults applied: a variable without a default may be undefined. */
export type Env = { -readonly [K in SettingName]: ValueOf<(typeof SETTINGS)[K]> };

/** The object schema the raw (coerced) environment is checked against. */
export const ENV_SCHEMA = Type.Object(
  Object.fromEntries(Object.entries(SETTINGS).map(([k, s]) => [k, Type.Optional(s.schema)])),
);

const SECTIONS: Section[] = [
  'Processes and storage',
  'Accounts and requests',
  'Jobs',
  'Sources and citations',
  'Embeddings and tags',
  'Delivery',
  'Monitoring and telemetry',
];

function shownDefault(s: Setting): string {
  if (s.shown) return s.shown;
  if (s.default === undefined) return '–';
  return `\`${String(s.default)}\``;
}

/** The README's configuration tables, one per section, in declaration order. */
export function settingsMarkdown(): string {
  const entries = Object.entries(SETTINGS) as [string, Setting][];
  return SECTIONS.map((section) => {
    const rows = entries
      .filter(([, s]) => s.section === section)
      .map(([name, s]) => `| \`${name}\` | ${shownDefault(s)} | ${s.doc.replace(/\|/g, '\\|')} |`);
    return [`### ${section}`, '', '| variable | default | purpose |', '| --- | --- | --- |', ...rows].join(
      '\n',
    );
  }).join('\n\n');
}
