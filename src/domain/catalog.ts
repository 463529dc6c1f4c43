export interface Topic {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  isActive: boolean;
}

export type SourceKind = 'rss' | 'arxiv';

export interface Source {
  id: string;
  topicId: string;
  name: string;
  kind: SourceKind;
  url: string;
  enabled: boolean;
  /** the scheduled scraper reads the source again once this long has passed since its last fetch */
  fetchIntervalMinutes: number;
  etag: string | null;
  lastModified: string | null;
  lastFetchedAt: Date | null;
  lastError: string | null;
}

export type ProviderType = 'text' | 'multimodal';

export interface Provider {
  id: string;
  name: string;
  type: ProviderType;
  baseUrl: string;
  model: string;
  imageModel: string | null;
  apiKey: string | null;
  isActive: boolean;
}

/** A source's fetch interval, in minutes: every 5 minutes at most, once a week at least. */
export const FETCH_INTERVAL = { min: 5, max: 10_080, default: 60 } as const;

/**
 * A scheduled tick comes a few seconds earlier or later than the fetch it follows (the run's
 * other sources, the queue): a source is due this much before its interval is over, so an hourly
 * source on an hourly schedule is read on every tick, not every other one.
 */
const graceMs = (intervalMinutes: number) => Math.min(intervalMinutes * 6_000, 5 * 60_000);

/** When the scheduled scraper may read the source next; null: never read, due now. */
export function nextFetchAt(s: Pick<Source, 'lastFetchedAt' | 'fetchIntervalMinutes'>): Date | null {
  return s.lastFetchedAt ? new Date(s.lastFetchedAt.getTime() + s.fetchIntervalMinutes * 60_000) : null;
}

/** Whether a scheduled run reads the source now (admin and CLI runs read every enabled source). */
export function isDue(s: Pick<Source, 'lastFetchedAt' | 'fetchIntervalMinutes'>, now: Date): boolean {
  const next = nextFetchAt(s);
  return !next || next.getTime() - graceMs(s.fetchIntervalMinutes) <= now.getTime();
}

/**
 * Why a URL could not be read as a feed, in words the admin page translates: the HTTP status, a
 * timeout, a body over the size limit, too many redirects, a network failure, an address the SSRF
 * guard refused, a document that is no feed (an HTML page), a malformed document (with its line),
 * a page that links to no feed.
 */
export const FEED_PROBLEMS = [
  'http_status',
  'timeout',
  'too_large',
  'redirects',
  'network',
  'refused',
  'not_a_feed',
  'malformed',
  'no_feed_found',
  'unknown',
] as const;
export type FeedProblemCode = (typeof FEED_PROBLEMS)[number];

export interface FeedProblem {
  code: FeedProblemCode;
  /** the reader's own words (English), e.g. "HTTP 404 from example.org" */
  message: string;
  httpStatus?: number;
  /** the line of a malformed document */
  line?: number;
}

/**
 * The problem an error of the feed reader stands for. The reader's errors say it themselves
 * (`problem`, `status`, `line`); any other error is `unknown` with its message.
 */
export function feedProblemOf(err: unknown): FeedProblem {
  const e = err as { problem?: unknown; status?: unknown; line?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const code = (FEED_PROBLEMS as readonly unknown[]).includes(e?.problem)
    ? (e!.problem as FeedProblemCode)
    : 'unknown';
  return {
    code,
    message,
    ...(typeof e?.status === 'number' ? { httpStatus: e.status } : {}),
    ...(typeof e?.line === 'number' ? { line: e.line } : {}),
  };
}

/** One read of a source by the scraper (GET /admin/sources/{id}/fetches). */
export interface SourceFetch {
  id: string;
  sourceId: string;
  runId: string | null;
  startedAt: Date;
  durationMs: number;
  /** the final answer's status (304: not modified); null when no answer came */
  httpStatus: number | null;
  itemsSeen: number;
  /** null until the run has de-duplicated and stored the items (or when it stopped before) */
  itemsNew: number | null;
  itemsDuplicate: number | null;
  errorCode: FeedProblemCode | null;
  error: string | null;
}

/** fetch results kept per source; older ones are deleted when a new one is written */
export const SOURCE_FETCHES_KEPT = 50;
