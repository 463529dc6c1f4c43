import type { IdentifierKey, IdentifierLink, TextFingerprint } from '../../domain/works.js';

/** An article as the work linker reads it. */
export interface LinkArticle {
  id: string;
  /** its work's id: `work_id`, else its own id */
  workId: string;
  doi: string | null;
  arxivId: string | null;
  url: string;
  canonicalUrl: string;
  metadata: Record<string, unknown>;
  /** the extracted text (else the summary), without the title */
  text: string | null;
  /** the feed's HTML, for its links */
  html: string | null;
  /** published_at, else scraped_at */
  at: Date;
}

/** A member of a work, with what decides its role and the work's best version. */
export interface WorkMember {
  id: string;
  workId: string;
  doi: string | null;
  arxivId: string | null;
  /** the article's own address: a preprint server's makes it the preprint (versionRole) */
  url: string;
  at: Date;
}

export interface CopyCandidate extends WorkMember {
  fingerprint: TextFingerprint;
}

/** One work after linking: its members and the version standing for it. */
export interface WorkAssignment {
  /** the work's id; null: create one */
  workId: string | null;
  memberIds: string[];
  headId: string;
  /** stored works whose members all moved into this one: deleted */
  retiredIds: string[];
}

export interface WorkDecision {
  kind: 'apart' | 'together';
  a: string;
  b: string;
}

/** The store of the work linker; `locked` runs a batch alone (one linker at a time). */
export interface WorkLinkStore {
  locked<T>(fn: (store: WorkLinkStore) => Promise<T>): Promise<T>;
  articles(ids: readonly string[]): Promise<LinkArticle[]>;
  /** links naming any of the keys, either side */
  linksOf(keys: readonly IdentifierKey[]): Promise<IdentifierLink[]>;
  saveLinks(links: readonly IdentifierLink[]): Promise<void>;
  /** articles whose own DOI or arXiv id is one of the keys */
  byIdentifiers(keys: readonly IdentifierKey[]): Promise<WorkMember[]>;
  /** `byIdentifiers` of each key set, in one read for them all */
  byIdentifiersEach(keySets: readonly (readonly IdentifierKey[])[]): Promise<WorkMember[][]>;
  /** for each set of canonical URLs, the articles that have one of them, in one read for them all */
  byCanonicalUrlsEach(urlSets: readonly (readonly string[])[]): Promise<WorkMember[][]>;
  /** these articles as members of their works */
  byIds(ids: readonly string[]): Promise<WorkMember[]>;
  /** every member of these works */
  members(workIds: readonly string[]): Promise<WorkMember[]>;
  /**
   * stores each article's fingerprint (null: too little text) and its buckets, and marks the
   * articles looked at: one set of statements for a whole batch
   */
  saveFingerprints(
    items: readonly { articleId: string; at: Date; fp: TextFingerprint | null; bands: number[] }[],
  ): Promise<void>;
  /**
   * For each query, the fingerprinted articles other than its own sharing one of its buckets, with
   * `at` in [from, to], at most `limit` each: one read for a whole batch, keyed by article id
   */
  copyCandidatesEach(
    queries: readonly { articleId: string; bands: number[]; from: Date; to: Date }[],
    limit: number,
  ): Promise<Map<string, CopyCandidate[]>>;
  /** replaces what each article references (`doi:`, `arxiv:`, `url:` keys), for a whole batch */
  saveReferences(items: readonly { articleId: string; refKeys: readonly string[] }[]): Promise<void>;
  /** the decisions touching any of these articles */
  decisions(articleIds: readonly string[]): Promise<WorkDecision[]>;
  saveDecisions(decisions: readonly WorkDecision[], by: string | null): Promise<void>;
  /** writes each work (creating those without id) and the members' work_id; answers the ids */
  assign(works: readonly WorkAssignment[]): Promise<string[]>;
  /**
   * The coverage of these works counted again (articles outside the work referencing a member's
   * DOI, arXiv id or canonical URL) and written as every member's coverage_count.
   */
  refreshCoverage(workIds: readonly string[]): Promise<void>;
  /** articles that have a final status, were stored since `since` and were never looked at */
  unlinked(since: Date, limit: number): Promise<string[]>;
  /** how many articles `unlinked` would answer without a limit (a backlog's size, for its progress) */
  unlinkedCount(since: Date): Promise<number>;
  /** ids of articles carrying one of these identifiers, for linking them again */
  articleIdsByIdentifiers(keys: readonly IdentifierKey[]): Promise<string[]>;
}

/** The work of one article or of a work id, as GET /works/{id} shows it. */
export interface WorkVersionView {
  articleId: string;
  role: 'preprint' | 'published' | 'copy' | 'coverage';
  source: string;
  url: string;
  title: string;
  doi: string | null;
  arxivId: string | null;
  publishedAt: Date | null;
  citationCount: number | null;
}

export interface WorkView {
  id: string;
  title: string;
  doi: string | null;
  arxivId: string | null;
  citationCount: number | null;
  coverageCount: number;
  versions: WorkVersionView[];
}

export interface WorkReadStore {
  /**
   * One work by its id, or the work of the article of that id: its members and up to `maxCoverage`
   * coverage articles, newest first, with the exact count; null when neither exists.
   */
  work(
    id: string,
    maxCoverage: number,
  ): Promise<{
    id: string;
    members: (Omit<WorkVersionView, 'role'> & { at: Date })[];
    coverage: Omit<WorkVersionView, 'role'>[];
    coverageCount: number;
  } | null>;
}
