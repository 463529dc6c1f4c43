/**
 * What the parse pool's worker threads run (parse-pool.ts): a feed's entries and a page's text,
 * synchronous, on bytes from outside. Their results cross threads by structured clone: FeedEntry
 * holds strings, string arrays, null and Dates only. Each takes the text, or the body as fetched
 * with its Content-Type, decoded here (charset.ts): then neither the decoding nor a copy of the
 * text is the event loop's.
 */
import { pageText as textOfPage } from '../../application/shared/text/html-to-text.js';
import { decodeBody } from './charset.js';
import { parseFeed as entriesOf } from './feed-parser.js';

const textOf = (body: string | Uint8Array, contentType: string | null) =>
  typeof body === 'string' ? body : decodeBody(body, contentType).text;

/** a feed's entries from its text, or from its bytes and its Content-Type header */
export function parseFeed(body: string | Uint8Array, baseUrl: string, contentType: string | null = null) {
  return entriesOf(textOf(body, contentType), baseUrl);
}

/** a page's title and text from its HTML, or from its bytes and its Content-Type header */
export function pageText(body: string | Uint8Array, contentType: string | null = null) {
  return textOfPage(textOf(body, contentType));
}
