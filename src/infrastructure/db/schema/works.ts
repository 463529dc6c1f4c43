import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { articles } from './articles.js';
import { users } from './users.js';

/**
 * Works of more than one article (docs/decisions/0125-works.md). An article whose `work_id` is null
 * is a work of its own, identified by the article's id: no row here, nothing written at insert.
 * `head_article_id` is the version that stands for the work in a collapsed list (published, else
 * preprint, else earliest), kept by the work linker.
 */
export const works = pgTable('works', {
  id: id(),
  headArticleId: uuid('head_article_id')
    .unique()
    .references(() => articles.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Identifiers a citation API answer names as one paper or two versions of it (Crossref
 * relations, Semantic Scholar externalIds, OpenAlex locations, arXiv's arxiv:doi), read from the
 * answers the citation refresh receives anyway. Keys: `doi:<doi>` or `arxiv:<id>`.
 */
export const workIdentifierLinks = pgTable(
  'work_identifier_links',
  {
    fromKey: text('from_key').notNull(),
    toKey: text('to_key').notNull(),
    evidence: text('evidence').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fromKey, t.toKey] }), index('work_identifier_links_to_idx').on(t.toKey)],
);

/**
 * The MinHash fingerprint of an article's text, written when the linker has looked at it (a row
 * with 0 shingles and no signature: too little text to compare). `at` is published_at, else
 * scraped_at. `bands` holds the signature's locality-sensitive bucket keys (one a band; each key is
 * a hash seeded with its band, so keys of different bands do not meet): texts sharing a key are
 * compared. One row and one GIN entry list an article, not a row a bucket: writing a batch's
 * buckets costs a few index pages, not thousands of B-tree inserts and foreign-key checks
 * (docs/decisions/0125-works.md).
 */
export const workFingerprints = pgTable(
  'work_fingerprints',
  {
    articleId: uuid('article_id')
      .primaryKey()
      .references(() => articles.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    shingles: integer('shingles').notNull(),
    signature: text('signature'),
    bands: integer('bands').array(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // no pending list: every lookup would read it whole
  (t) => [index('work_fingerprints_bands_idx').using('gin', t.bands).with({ fastupdate: false })],
);

/**
 * What an article's text links to or names: `doi:<doi>`, `arxiv:<id>` or `url:<canonical url>`.
 * An article referencing a stored work's identifier or landing URL is coverage of that work.
 */
export const articleReferences = pgTable(
  'article_references',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    refKey: text('ref_key').notNull(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.refKey] }), index('article_references_key_idx').on(t.refKey)],
);

/**
 * An admin's split or merge, remembered so later linking keeps it: `apart` (these two articles
 * never share a work) or `together` (they always do). `article_a` < `article_b`.
 */
export const workDecisions = pgTable(
  'work_decisions',
  {
    kind: text('kind').$type<'apart' | 'together'>().notNull(),
    articleA: uuid('article_a')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    articleB: uuid('article_b')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.articleA, t.articleB] }), index('work_decisions_b_idx').on(t.articleB)],
);
