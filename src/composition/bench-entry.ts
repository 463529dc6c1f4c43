/**
 * The one module of the service the benches import (docs/decisions/0113-bench-one-entry.md): the
 * composition root and the settings to build the service as the roles do, the HTTP app, the
 * database with its public schema, the caches, and the few pure functions the parser bench times.
 * `npm run layers` refuses any other import from bench/ into src/ or test/ (test/peers, the
 * protocol peers of outside services, excepted). A bench that needs more adds it here, in the open.
 */
export { loadConfig } from '../config.js';
export { createContainer, type Container } from './container.js';
export { buildApp } from '../http/app.js';
export { openDatabase, rowsOf, type Database, type Db } from '../infrastructure/db/client.js';
export { seedDatabase } from '../infrastructure/db/seed.js';
export {
  articles,
  articleTags,
  scraperRuns,
  tagGroups,
  tags,
  topics,
} from '../infrastructure/db/schema/index.js';
export { MemoryCache } from '../infrastructure/cache/memory-cache.js';
export { RedisCache } from '../infrastructure/cache/redis-cache.js';
export { ScryptHasher } from '../infrastructure/auth/scrypt-hasher.js';
export type { KeyValueCache } from '../application/shared/ports.js';
export type { SortOrder } from '../domain/articles.js';
/** the article jobs' queue, whose jobs the workers bench counts */
export { ARTICLE_QUEUE } from '../application/pipeline/article-jobs.js';
/** articles in one work-linking pass, as the `work.link` jobs take them */
export { LINK_BATCH } from '../application/works/work-linker.service.js';
/** the parser bench times these three directly: a feed's bytes to text, to entries, a page to text */
export { decodeBody } from '../infrastructure/feeds/charset.js';
export { parseFeed } from '../infrastructure/feeds/feed-parser.js';
export { htmlToText } from '../application/shared/text/html-to-text.js';
