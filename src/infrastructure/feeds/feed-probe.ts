/**
 * "Is this a feed?" for the admin's source form: the URL is read like the scraper reads a source
 * (the same fetcher: size and time limits, charset, redirects) and parsed by the same parser; an
 * HTML page is searched for the feeds it links to instead.
 */
import type { FeedProbe, FeedSummary, ProbeResult } from '../../application/catalog/sources.ports.js';
import { feedProblemOf } from '../../domain/catalog.js';
import type { FeedEntry } from '../../application/pipeline/pipeline.ports.js';
import { extractPage } from '../../application/shared/text/html-to-text.js';
import { discoverFeeds, looksLikeHtml } from './feed-discovery.js';
import { FEED_ACCEPT } from './feed-reader.js';
import type { HttpFetcher } from './http-fetcher.js';

/** the entry published last; the first one when none carries a date */
function newest(entries: FeedEntry[]): FeedEntry | null {
  let best: FeedEntry | null = null;
  for (const e of entries)
    if (!best || (e.publishedAt && (!best.publishedAt || e.publishedAt > best.publishedAt))) best = e;
  return best;
}

/** the `<title>` of a page (it is in the head: the first 64 kB are enough) */
async function pageTitle(html: string): Promise<string | null> {
  return (await extractPage(html.slice(0, 64 * 1024))).title?.slice(0, 200) ?? null;
}

export class HttpFeedProbe implements FeedProbe {
  constructor(private readonly http: HttpFetcher) {}

  async probe(url: string, opts: { untrusted?: boolean } = {}): Promise<ProbeResult> {
    let doc;
    try {
      doc = await this.http.get(url, { accept: `${FEED_ACCEPT}, text/html;q=0.4` }, opts);
    } catch (err) {
      const problem = feedProblemOf(err);
      return { kind: 'problem', problem, httpStatus: problem.httpStatus ?? null };
    }
    const fetched = { finalUrl: doc.url, httpStatus: doc.status };
    const { FeedFormatError, parseFeedDocument } = await import('./feed-parser.js');
    try {
      const parsed = parseFeedDocument(doc.body, doc.url);
      const last = newest(parsed.entries);
      const feed: FeedSummary = {
        format: parsed.format,
        title: parsed.title,
        itemCount: parsed.entries.length,
        newest: last ? { title: last.title, url: last.url, publishedAt: last.publishedAt } : null,
      };
      return { kind: 'feed', feed, ...fetched };
    } catch (err) {
      const html =
        err instanceof FeedFormatError &&
        err.problem === 'not_a_feed' &&
        looksLikeHtml(doc.headers.get('content-type'), doc.body);
      if (html)
        return {
          kind: 'page',
          title: await pageTitle(doc.body),
          feeds: discoverFeeds(doc.body, doc.url),
          ...fetched,
        };
      return { kind: 'problem', problem: feedProblemOf(err), httpStatus: doc.status };
    }
  }
}
