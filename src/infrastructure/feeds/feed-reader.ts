import type {
  FeedReadResult,
  FeedReader,
  FeedSourceRef,
  PageReader,
} from '../../application/pipeline/pipeline.ports.js';
import { FetchError, type HttpFetcher } from './http-fetcher.js';
import { inProcessParsing, type Parsing } from './parse-pool.js';

export const FEED_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5';

/**
 * Reads RSS/Atom/JSON feeds and arXiv API queries with a conditional GET; parses them with
 * `parsing` (the service's ParsePool: worker threads).
 */
export class HttpFeedReader implements FeedReader {
  constructor(
    private readonly http: HttpFetcher,
    private readonly parsing: Parsing = inProcessParsing,
  ) {}

  async read(source: FeedSourceRef, signal?: AbortSignal): Promise<FeedReadResult> {
    const headers: Record<string, string> = { accept: FEED_ACCEPT };
    if (source.etag) headers['if-none-match'] = source.etag;
    if (source.lastModified) headers['if-modified-since'] = source.lastModified;
    // the body's bytes go to the parser as they came: decoded where they are parsed
    const doc = await this.http.getBytes(source.url, headers, { signal });
    if (doc.status === 304) return { notModified: true, status: 304 };
    return {
      notModified: false,
      status: doc.status,
      entries: await this.parsing.parseFeedBytes(doc.bytes, doc.headers.get('content-type'), doc.url),
      etag: doc.headers.get('etag'),
      lastModified: doc.headers.get('last-modified'),
    };
  }
}

/**
 * The title and readable text of an HTML page. Its URL came from feed content, so the fetch goes
 * through the SSRF guard on every hop (FetchRefusedError).
 */
export class HttpPageReader implements PageReader {
  constructor(
    private readonly http: HttpFetcher,
    private readonly parsing: Parsing = inProcessParsing,
  ) {}

  async read(url: string, signal?: AbortSignal): Promise<{ title: string | null; text: string }> {
    const doc = await this.http.getBytes(
      url,
      { accept: 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5' },
      { untrusted: true, signal },
    );
    // a PDF or an image behind the link would become a garbled article text
    const type = doc.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type && !/^text\/|^application\/(xhtml\+)?xml$/.test(type))
      throw new FetchError(`not an HTML page (${type.slice(0, 60)})`);
    return this.parsing.pageTextBytes(doc.bytes, doc.headers.get('content-type') ?? null);
  }
}
