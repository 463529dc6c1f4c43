import type { FeedEntry } from '../../application/pipeline/pipeline.ports.js';
import { extractPage } from '../../application/shared/text/html-to-text.js';
import { decodeBody } from './charset.js';
import { FunctionPool, FunctionPoolError, type FunctionPoolOptions } from '../workers/function-pool.js';

/** Where the feed and page readers turn bytes into entries and text. */
export interface Parsing {
  parseFeed(body: string, baseUrl: string): Promise<FeedEntry[]>;
  pageText(html: string): Promise<{ title: string | null; text: string }>;
  /** `parseFeed` of a body as fetched, decoded by its Content-Type and declarations (charset.ts) */
  parseFeedBytes(bytes: Uint8Array, contentType: string | null, baseUrl: string): Promise<FeedEntry[]>;
  /** `pageText` of a body as fetched, decoded as `parseFeedBytes` decodes */
  pageTextBytes(
    bytes: Uint8Array,
    contentType: string | null,
  ): Promise<{ title: string | null; text: string }>;
}

/**
 * In the reader's own thread: parseFeed holds the event loop for the whole document, the page
 * text is extracted in chunks with a turn of the loop between them. The default of a reader built
 * without a pool (tools, tests).
 */
export const inProcessParsing: Parsing = {
  // feedsmith loads with the first feed read, not at start (idle memory)
  parseFeed: async (body, baseUrl) => (await import('./feed-parser.js')).parseFeed(body, baseUrl),
  pageText: extractPage,
  parseFeedBytes: (bytes, contentType, baseUrl) =>
    inProcessParsing.parseFeed(decodeBody(bytes, contentType).text, baseUrl),
  pageTextBytes: (bytes, contentType) => extractPage(decodeBody(bytes, contentType).text),
};

/**
 * The bytes as a view that can move to a worker without a copy: a view of its whole own buffer.
 * A view into a shared one (Node's pool of small Buffers, a slice) is copied first: moving that
 * buffer would take it from whatever else it holds.
 */
function movable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return whole ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

export type ParsePoolOptions = Pick<
  FunctionPoolOptions,
  'threads' | 'timeLimitMs' | 'idleMs' | 'maxQueue' | 'resourceLimits'
>;

/** a 5 MB feed (the fetch limit) built to cost the parser takes 0.5–1.2 s of one core */
export const PARSE_TIME_LIMIT_MS = 20_000;
/** the heap limit of one parse worker (a 5 MB feed of 1,600 items parsed within a 48 MB limit) */
export const PARSE_HEAP_MB = 512;
/**
 * The parse workers' nice value: on two cores a parse worker, the pipeline and the api's event loop
 * compete, and the loop stalled 9-17 ms behind a parse (`health.during_parse`); niced, the worker
 * yields the core to the loop and takes every cycle the loop leaves
 */
export const PARSE_NICE = 10;

/**
 * Feeds and pages parsed in worker threads (parse-functions.ts): a big or hostile document holds a
 * worker, never the event loop that answers /health. A parse that runs past its time limit fails
 * its source with the problem `timeout`; a worker that dies (its heap limit) fails its document
 * only. No worker starts before the first parse.
 */
export class ParsePool implements Parsing {
  private readonly pool: FunctionPool;

  constructor(opts: ParsePoolOptions = {}) {
    this.pool = new FunctionPool({
      name: 'feed parser',
      moduleUrl: new URL(`./parse-functions${extension()}`, import.meta.url),
      timeLimitMs: PARSE_TIME_LIMIT_MS,
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB },
      nice: PARSE_NICE,
      ...opts,
    });
  }

  /** ids of the running worker threads */
  get threadIds(): number[] {
    return this.pool.threadIds;
  }

  parseFeed(body: string, baseUrl: string): Promise<FeedEntry[]> {
    return this.call('parseFeed', [body, baseUrl]);
  }

  pageText(html: string): Promise<{ title: string | null; text: string }> {
    return this.call('pageText', [html]);
  }

  /** the bytes move to the worker: unusable by the caller afterwards */
  parseFeedBytes(bytes: Uint8Array, contentType: string | null, baseUrl: string): Promise<FeedEntry[]> {
    const b = movable(bytes);
    return this.call('parseFeed', [b, baseUrl, contentType], [b.buffer]);
  }

  /** the bytes move to the worker: unusable by the caller afterwards */
  pageTextBytes(
    bytes: Uint8Array,
    contentType: string | null,
  ): Promise<{ title: string | null; text: string }> {
    const b = movable(bytes);
    return this.call('pageText', [b, contentType], [b.buffer]);
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async call<T>(fn: string, args: unknown[], transfer: ArrayBuffer[] = []): Promise<T> {
    try {
      return await this.pool.run<T>(fn, args, transfer);
    } catch (err) {
      // the source's fetch history says a parse that ran too long is a timeout
      if (err instanceof FunctionPoolError && err.reason === 'timeout')
        throw Object.assign(err, { problem: 'timeout' });
      throw err;
    }
  }
}

// sources run through tsx (dev, tests) end in .ts; the build emits .js
function extension(): string {
  return new URL(import.meta.url).pathname.endsWith('.ts') ? '.ts' : '.js';
}
