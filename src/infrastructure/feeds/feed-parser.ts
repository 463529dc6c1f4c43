/**
 * Parses RSS 0.9x/1.0 (RDF)/2.0, Atom 0.3/1.0 (arXiv API answers included) and JSON Feed 1.0/1.1
 * with feedsmith (docs/decisions/0043-feed-parser.md), after a well-formedness check: feedsmith, like
 * every fast-xml-parser based reader, reads a truncated document as whatever it got so far, and a
 * feed cut in half must be a per-source error, not a healthy shorter feed.
 */
import { XMLValidator } from 'fast-xml-parser';
import { parseAtomFeed, parseJsonFeed, parseRdfFeed, parseRssFeed } from 'feedsmith';
import type { FeedEntry } from '../../application/pipeline/pipeline.ports.js';
import { atomEntry, atomText, fromHtml, jsonEntry, plain, rssEntry } from './feed-entries.js';
import { escapeBareAmpersands, rootElementName } from './xml-prolog.js';

export class FeedFormatError extends Error {
  constructor(
    message: string,
    /** `not_a_feed`: another kind of document (an HTML page); `malformed`: a feed that does not parse */
    readonly problem: 'not_a_feed' | 'malformed' = 'malformed',
    /** the line of a malformed XML document */
    readonly line?: number,
  ) {
    super(message);
    this.name = 'FeedFormatError';
  }
}

export type FeedFormat = 'rss' | 'rdf' | 'atom' | 'json';

/** A parsed feed: its format, its own title and its entries. */
export interface FeedDocument {
  format: FeedFormat;
  title: string | null;
  entries: FeedEntry[];
}

const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1';

const present = (e: FeedEntry | null): e is FeedEntry => e !== null;

function readJson(text: string, baseUrl: string): FeedDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new FeedFormatError(`invalid JSON feed: ${(err as Error).message}`.slice(0, 300));
  }
  const obj = json as { items?: unknown; version?: unknown };
  if (typeof json !== 'object' || json === null || !Array.isArray(obj.items))
    throw new FeedFormatError('a JSON document without an items array is not a JSON feed', 'not_a_feed');
  // feedsmith wants the version URL; feeds that write "1.0" or none are read as the current version
  const version =
    typeof obj.version === 'string' && obj.version.includes('jsonfeed.org/version/')
      ? obj.version
      : JSON_FEED_VERSION;
  let feed;
  try {
    feed = parseJsonFeed({ ...obj, version });
  } catch (err) {
    throw new FeedFormatError(`invalid JSON feed: ${(err as Error).message}`);
  }
  return {
    format: 'json',
    title: plain(feed.title),
    entries: (feed.items ?? []).map((i) => jsonEntry(i, baseUrl)).filter(present),
  };
}

function readXml(text: string, baseUrl: string): FeedDocument {
  const xml = escapeBareAmpersands(text);
  const qualified = rootElementName(xml);
  const root = qualified && qualified.slice(qualified.indexOf(':') + 1);
  if (root !== 'rss' && root !== 'rdf' && root !== 'feed')
    throw new FeedFormatError(
      root ? `not an RSS, Atom or JSON feed (<${root}>)` : 'not an RSS, Atom or JSON feed',
      'not_a_feed',
    );
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new FeedFormatError(
      `malformed XML at line ${valid.err.line}: ${valid.err.msg}`.slice(0, 300),
      'malformed',
      valid.err.line,
    );
  try {
    if (root === 'feed') {
      const feed = parseAtomFeed(xml);
      return {
        format: 'atom',
        title: atomText(feed.title),
        entries: (feed.entries ?? []).map((e) => atomEntry(e, baseUrl, feed.xml?.base)).filter(present),
      };
    }
    const feed = root === 'rss' ? parseRssFeed(xml) : parseRdfFeed(xml);
    return {
      format: root,
      title: fromHtml(feed.title),
      entries: (feed.items ?? []).map((i) => rssEntry(i, baseUrl, feed.xml?.base)).filter(present),
    };
  } catch (err) {
    throw new FeedFormatError(`unreadable ${root} feed: ${(err as Error).message}`.slice(0, 300));
  }
}

/** An RSS, Atom, arXiv or JSON feed: format, title and entries (links resolved against `baseUrl`). */
export function parseFeedDocument(body: string, baseUrl: string): FeedDocument {
  const text = body.replace(/^\uFEFF/, '').trim();
  if (!text) throw new FeedFormatError('the document is empty', 'not_a_feed');
  if (text.startsWith('{')) return readJson(text, baseUrl);
  return readXml(text, baseUrl);
}

/** The entries of an RSS, Atom, arXiv or JSON feed; relative links resolve against `baseUrl`. */
export function parseFeed(body: string, baseUrl: string): FeedEntry[] {
  return parseFeedDocument(body, baseUrl).entries;
}
