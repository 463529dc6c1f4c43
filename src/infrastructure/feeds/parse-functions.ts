/**
 * What the parse pool's worker threads run (parse-pool.ts): a feed's entries and a page's text,
 * synchronous, on bytes from outside. Their results cross threads by structured clone: FeedEntry
 * holds strings, string arrays, null and Dates only.
 */
export { parseFeed } from './feed-parser.js';
export { pageText } from '../../application/shared/text/html-to-text.js';
