import type { FeedProblem, SourceFetch } from '../../domain/catalog.js';
import type { RunScope } from '../pipeline/pipeline.ports.js';

/** A feed as the preview shows it: what it is, what it is called, how much it holds, its newest item. */
export interface FeedSummary {
  format: 'rss' | 'rdf' | 'atom' | 'json';
  title: string | null;
  itemCount: number;
  newest: { title: string; url: string; publishedAt: Date | null } | null;
}

/** A feed an HTML page links to (`<link rel="alternate">`). */
export interface DiscoveredFeed {
  url: string;
  title: string | null;
  type: 'rss' | 'atom' | 'json' | null;
}

interface Fetched {
  /** the address read, after redirects */
  finalUrl: string;
  httpStatus: number;
}

/** What reading one URL found: a feed, an HTML page (with the feeds it links to), or a problem. */
export type ProbeResult =
  | ({ kind: 'feed'; feed: FeedSummary } & Fetched)
  | ({ kind: 'page'; title: string | null; feeds: DiscoveredFeed[] } & Fetched)
  | { kind: 'problem'; problem: FeedProblem; httpStatus: number | null };

/**
 * Reads a URL with the scraper's feed reader (its size and time limits, charset handling and
 * redirect rules) and says what it is. `untrusted`: the URL came from a page, not from the admin
 * (every hop goes through the SSRF guard).
 */
export interface FeedProbe {
  probe(url: string, opts?: { untrusted?: boolean }): Promise<ProbeResult>;
}

/** The scraper's fetch results per source. */
export interface SourceFetchHistory {
  /** the newest first */
  list(sourceId: string, limit: number): Promise<SourceFetch[]>;
  /** the newest result of each source that has one */
  latest(sourceIds: string[]): Promise<Map<string, SourceFetch>>;
}

/**
 * Starts a scraper run over some sources (202 {run_id}); 409 while one is under way. `firstRead`:
 * the run is a new source's first read (its trigger says so), not an admin's "Fetch now".
 */
export type StartRun = (scope: RunScope, firstRead?: boolean) => Promise<{ run_id: string }>;
