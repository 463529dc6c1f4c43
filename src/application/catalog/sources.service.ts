import { invalid } from '../../domain/errors.js';
import type { FeedProblem, FeedProblemCode, SourceFetch, SourceKind } from '../../domain/catalog.js';
import type { FirstFetchJobs } from './first-fetch-jobs.js';
import type { CatalogService, SourceOut } from './catalog.service.js';
import type {
  DiscoveredFeed,
  FeedProbe,
  FeedSummary,
  ProbeResult,
  SourceFetchHistory,
  StartRun,
} from './sources.ports.js';

export interface SourceFetchOut {
  id: string;
  run_id: string | null;
  started_at: string;
  duration_ms: number;
  http_status: number | null;
  items_seen: number;
  items_new: number | null;
  items_duplicate: number | null;
  error_code: FeedProblemCode | null;
  error: string | null;
}

/** A source with its latest fetch result (the admin sources table). */
export interface SourceView extends SourceOut {
  last_fetch: SourceFetchOut | null;
}

export interface ProblemOut {
  code: FeedProblem['code'];
  message: string;
  http_status?: number;
  line?: number;
}

export interface FeedOut {
  format: FeedSummary['format'];
  title: string | null;
  item_count: number;
  newest: { title: string; url: string; published_at: string | null } | null;
}

/** POST /admin/sources/preview */
export interface PreviewOut {
  /** what the admin typed */
  requested_url: string;
  /** the address to save: the one typed, or the feed its page links to when there is one */
  url: string;
  /** feed: `feed` is filled; page: the page links to several feeds (`discovered`), pick one; problem */
  status: 'feed' | 'page' | 'problem';
  /** where the last read ended after redirects, and its HTTP status */
  final_url: string | null;
  http_status: number | null;
  feed: FeedOut | null;
  /** the title of the HTML page the address led to */
  page_title: string | null;
  discovered: DiscoveredFeed[];
  problem: ProblemOut | null;
}

export interface SourceInput {
  topic_id: string;
  /** default: the feed's own title (else the host name) */
  name?: string;
  kind: SourceKind;
  url: string;
  enabled?: boolean;
  fetch_interval_minutes?: number;
  /** save without reading the URL (an intranet feed that is down for now) */
  force?: boolean;
  /** read the new source at once (create only) */
  fetch_now?: boolean;
}

/** fetch results GET /admin/sources/{id}/fetches answers */
export const FETCH_HISTORY = 20;

const fetchOut = (f: SourceFetch): SourceFetchOut => ({
  id: f.id,
  run_id: f.runId,
  started_at: f.startedAt.toISOString(),
  duration_ms: f.durationMs,
  http_status: f.httpStatus,
  items_seen: f.itemsSeen,
  items_new: f.itemsNew,
  items_duplicate: f.itemsDuplicate,
  error_code: f.errorCode,
  error: f.error,
});

const problemOut = (p: FeedProblem): ProblemOut => ({
  code: p.code,
  message: p.message,
  ...(p.httpStatus !== undefined ? { http_status: p.httpStatus } : {}),
  ...(p.line !== undefined ? { line: p.line } : {}),
});

const feedOut = (f: FeedSummary): FeedOut => ({
  format: f.format,
  title: f.title,
  item_count: f.itemCount,
  newest: f.newest
    ? { title: f.newest.title, url: f.newest.url, published_at: f.newest.publishedAt?.toISOString() ?? null }
    : null,
});

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

/** Why a read is no feed, as one sentence of the 422 a refused source gets. */
function refusal(r: Exclude<ProbeResult, { kind: 'feed' }>): { problem: ProblemOut; message: string } {
  if (r.kind === 'problem')
    return { problem: problemOut(r.problem), message: `not a feed: ${r.problem.message}` };
  const problem: ProblemOut = r.feeds.length
    ? {
        code: 'not_a_feed',
        message: `a web page that links to ${r.feeds.length} feed(s): ${r.feeds.map((f) => f.url).join(', ')}`,
      }
    : { code: 'no_feed_found', message: 'a web page that links to no feed' };
  return { problem, message: `not a feed: ${problem.message}` };
}

/**
 * The admin's sources (issue 18): add and edit with the URL checked first, preview and feed
 * discovery, each source's fetch history, and "Fetch now".
 */
export class SourcesService {
  constructor(
    private readonly catalog: CatalogService,
    private readonly probe: FeedProbe,
    private readonly fetches: SourceFetchHistory,
    private readonly startRun: StartRun,
    private readonly firstFetches: Pick<FirstFetchJobs, 'enqueue'>,
  ) {}

  async list(topicId?: string): Promise<SourceView[]> {
    const sources = await this.catalog.listSources(topicId);
    const latest = await this.fetches.latest(sources.map((s) => s.id));
    return sources.map((s) => this.view(s, latest.get(s.id)));
  }

  /**
   * Reads the URL: a feed answers its title, format, item count and newest item; an HTML page the
   * feeds it links to (one is read at once; several: the admin picks); anything else the reason.
   */
  async preview(url: string): Promise<PreviewOut> {
    const first = await this.probe.probe(url);
    const base = { requested_url: url, url, page_title: null, discovered: [] as DiscoveredFeed[] };
    if (first.kind !== 'page') return { ...base, ...this.outcome(first) };
    const page = { ...base, page_title: first.title, discovered: first.feeds };
    // no feed: the outcome says so (no_feed_found); several: the admin picks one
    if (first.feeds.length === 0) return { ...page, ...this.outcome(first) };
    if (first.feeds.length > 1) return { ...page, ...this.outcome(first), status: 'page', problem: null };
    // the page's one feed is read at once; an address the page gave is guarded like feed content
    const feedUrl = first.feeds[0]!.url;
    const second = await this.probe.probe(feedUrl, { untrusted: hostOf(feedUrl) !== hostOf(first.finalUrl) });
    return { ...page, url: feedUrl, ...this.outcome(second) };
  }

  /** Adds a source; unless `force`, its URL must answer a feed (422 source_not_a_feed with the reason). */
  async create(input: SourceInput): Promise<SourceView & { first_fetch_run_id: string | null }> {
    const { force, fetch_now: fetchNow, ...fields } = input;
    let title: string | null = null;
    // what needs no network is checked before the URL is read
    await this.catalog.checkNewSource(input.topic_id, input.url);
    if (!force) title = await this.checkFeed(input.url);
    const name = fields.name?.trim() || title || hostOf(input.url) || input.url;
    const created = this.view(await this.catalog.createSource({ ...fields, name }), undefined);
    // asked for (the admin form): read at once, not at the next scheduled run (a disabled one is not)
    const first = fetchNow && created.enabled ? await this.startFirstFetch(created.id) : null;
    return { ...created, first_fetch_run_id: first };
  }

  /**
   * Starts the first read of a new source; while another scraper run is under way it is queued
   * instead (a durable job: FirstFetchJobs), which starts it once that run has ended. Null: queued.
   */
  private async startFirstFetch(id: string): Promise<string | null> {
    try {
      return (await this.startRun({ kind: 'source', sourceId: id }, true)).run_id;
    } catch {
      // a run under way (409) or a start that failed: the job tries again. The source is saved
      // whatever happens here; were the queue down too, the schedule reads it (never read: due)
      await this.firstFetches.enqueue(id).catch(() => false);
      return null;
    }
  }

  /** Edits a source; a changed URL is checked like a new one unless `force`. */
  async update(id: string, patch: Partial<SourceInput>): Promise<SourceView> {
    const { force, ...fields } = patch;
    if (fields.url !== undefined && !force) {
      const current = await this.catalog.getSource(id);
      if (current.url !== fields.url) await this.checkFeed(fields.url);
    }
    const updated = await this.catalog.updateSource(id, fields);
    return this.view(updated, (await this.fetches.latest([id])).get(id));
  }

  async history(id: string): Promise<SourceFetchOut[]> {
    await this.catalog.getSource(id);
    return (await this.fetches.list(id, FETCH_HISTORY)).map(fetchOut);
  }

  /** Starts a scraper run for this one source (enabled or not): 202 {run_id}. */
  async fetchNow(id: string): Promise<{ run_id: string }> {
    await this.catalog.getSource(id);
    return this.startRun({ kind: 'source', sourceId: id });
  }

  /** the feed's title when the URL answers a feed; else 422 with the reason */
  private async checkFeed(url: string): Promise<string | null> {
    const r = await this.probe.probe(url);
    if (r.kind === 'feed') return r.feed.title;
    const { problem, message } = refusal(r);
    throw invalid(message, 'source_not_a_feed', [{ path: '/url', message: problem.message }]);
  }

  private outcome(r: ProbeResult) {
    if (r.kind === 'feed')
      return {
        status: 'feed' as const,
        final_url: r.finalUrl,
        http_status: r.httpStatus,
        feed: feedOut(r.feed),
        problem: null,
      };
    if (r.kind === 'page')
      return {
        status: 'problem' as const,
        final_url: r.finalUrl,
        http_status: r.httpStatus,
        feed: null,
        problem: refusal(r).problem,
      };
    return {
      status: 'problem' as const,
      final_url: null,
      http_status: r.httpStatus,
      feed: null,
      problem: problemOut(r.problem),
    };
  }

  private view(s: SourceOut, last: SourceFetch | undefined): SourceView {
    return { ...s, last_fetch: last ? fetchOut(last) : null };
  }
}
