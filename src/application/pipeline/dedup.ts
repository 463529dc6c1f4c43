/**
 * De-duplication rules: an entry is a duplicate when its canonical URL (tracking parameters
 * removed), DOI, arXiv id or normalized title matches an article already stored or an entry
 * seen earlier in the same run. The first matching key is kept as the reason.
 */
import { titleKey } from '../../domain/identifiers.js';
import { versionRole } from '../../domain/works.js';

export type DuplicateReason = 'url' | 'doi' | 'arxiv_id' | 'title';

export interface DedupKeys {
  canonicalUrl: string;
  doi: string | null;
  arxivId: string | null;
  normalizedTitle: string;
}

/**
 * A DOI or title that a preprint and its published version share points at the published one: a
 * later copy of the journal version finds it, and the preprint is still found by URL and arXiv id.
 */
export const takesSharedKey = (
  reason: DuplicateReason,
  a: { doi: string | null; arxivId: string | null; url: string },
): boolean => (reason === 'doi' || reason === 'title') && versionRole(a) === 'published';

export interface DuplicateSkip {
  url: string;
  reason: DuplicateReason;
  /** the canonical URL of the article (stored or earlier in the run) it duplicates */
  duplicateOf: string;
}

/** What dedup knows of a kept article: the fields a duplicate may fill, and its topics. */
export interface KeptArticle {
  doi: string | null;
  arxivId: string | null;
  publishedAt: Date | null;
  topicIds: string[];
}

/** What is already stored: each key mapped to the canonical URL of its article. */
export interface KnownKeys {
  url: Map<string, string>;
  doi: Map<string, string>;
  arxiv_id: Map<string, string>;
  title: Map<string, string>;
  /** the stored articles found, by canonical URL */
  articles: Map<string, KeptArticle>;
}

export const emptyKnownKeys = (): KnownKeys => ({
  url: new Map(),
  doi: new Map(),
  arxiv_id: new Map(),
  title: new Map(),
  articles: new Map(),
});

/** Fields a skipped duplicate brings to a stored article that lacked them. */
export interface Enrichment {
  canonicalUrl: string;
  doi: string | null;
  arxivId: string | null;
  publishedAt: Date | null;
}

/** A topic (and the source of it) that carries an article kept under another topic. */
export interface TopicLink {
  canonicalUrl: string;
  topicId: string;
  sourceId: string | null;
}

export interface DedupCandidate extends DedupKeys {
  url: string;
  publishedAt: Date | null;
  topicId: string;
  sourceId: string | null;
  /** other topics whose sources carried this item in the same run (set on fresh copies) */
  alsoIn?: { topicId: string; sourceId: string | null }[];
}

export interface DedupResult<C> {
  /** new articles, in input order; identifiers and dates of their in-run duplicates merged in */
  fresh: C[];
  skipped: DuplicateSkip[];
  /** stored articles that gain an identifier or a date from a duplicate */
  enrichments: Enrichment[];
  /** stored articles carried by the sources of another topic too (fresh ones carry `alsoIn`) */
  links: TopicLink[];
}

function keysOf(c: DedupKeys): [DuplicateReason, string | null][] {
  return [
    ['url', c.canonicalUrl],
    ['doi', c.doi],
    ['arxiv_id', c.arxivId],
    ['title', titleKey(c.normalizedTitle)],
  ];
}

type Fillable = Pick<KeptArticle, 'doi' | 'arxivId' | 'publishedAt'>;

/**
 * Fills what the kept article lacks from its duplicate. An identifier another article already
 * holds is not copied (that would make two articles answer to one DOI). The new keys are known
 * from now on, so a later copy carrying only the DOI still finds the kept article.
 */
function enrich(kept: Fillable, keptUrl: string, dup: DedupCandidate, known: KnownKeys): boolean {
  let changed = false;
  const free = (map: Map<string, string>, key: string) => (map.get(key) ?? keptUrl) === keptUrl;
  if (!kept.doi && dup.doi && free(known.doi, dup.doi)) {
    kept.doi = dup.doi;
    known.doi.set(dup.doi, keptUrl);
    changed = true;
  }
  if (!kept.arxivId && dup.arxivId && free(known.arxiv_id, dup.arxivId)) {
    kept.arxivId = dup.arxivId;
    known.arxiv_id.set(dup.arxivId, keptUrl);
    changed = true;
  }
  if (!kept.publishedAt && dup.publishedAt) {
    kept.publishedAt = dup.publishedAt;
    changed = true;
  }
  return changed;
}

/**
 * Splits candidates into the new ones and the skipped ones (with their reason), in input order.
 * A skipped duplicate is not lost: what it knows that the kept article lacks (DOI, arXiv id,
 * publication date) goes to the kept one (merged into a fresh candidate, or an enrichment of a
 * stored article), and its topic becomes one of the kept article's topics. The arrival order of
 * the copies (sources are read concurrently, runs are hours apart) therefore changes nothing.
 * The candidates given are not changed: `fresh` holds copies.
 */
export function dedupCandidates<C extends DedupCandidate>(candidates: C[], known: KnownKeys): DedupResult<C> {
  const fresh: C[] = [];
  const skipped: DuplicateSkip[] = [];
  const enriched = new Set<string>();
  const links: TopicLink[] = [];
  /** the fresh copies by canonical URL, and the topics of every kept article met so far */
  const freshByUrl = new Map<string, C>();
  const topicsOf = new Map<string, string[]>();
  for (const c of candidates) {
    const keys = keysOf(c);
    const hits = keys.filter(([reason, key]) => key !== null && known[reason].has(key));
    const hit = hits.find(([reason, key]) => !anotherVersion(c, reason, known[reason].get(key!)!));
    if (!hit) {
      for (const [reason, key] of keys)
        if (key !== null && (!known[reason].has(key) || takesSharedKey(reason, c)))
          known[reason].set(key, c.canonicalUrl);
      const copy: C = { ...c, ...(c.alsoIn ? { alsoIn: [...c.alsoIn] } : {}) };
      freshByUrl.set(c.canonicalUrl, copy);
      topicsOf.set(c.canonicalUrl, [c.topicId]);
      fresh.push(copy);
      continue;
    }
    const keptUrl = known[hit[0]].get(hit[1]!)!;
    skipped.push({ url: c.url, reason: hit[0], duplicateOf: keptUrl });
    const inRun = freshByUrl.get(keptUrl);
    const stored = known.articles.get(keptUrl);
    const kept = inRun ?? stored;
    if (!kept) continue;
    if (enrich(kept, keptUrl, c, known) && !inRun) enriched.add(keptUrl);
    let topics = topicsOf.get(keptUrl);
    if (!topics) topicsOf.set(keptUrl, (topics = [...(stored?.topicIds ?? [])]));
    if (topics.includes(c.topicId)) continue;
    topics.push(c.topicId);
    if (inRun) (inRun.alsoIn ??= []).push({ topicId: c.topicId, sourceId: c.sourceId });
    else links.push({ canonicalUrl: keptUrl, topicId: c.topicId, sourceId: c.sourceId });
  }
  /**
   * A preprint and its published version share a title, and an arXiv entry carries its journal's
   * DOI (arxiv:doi): such a match is not a duplicate but another version, stored as an article of
   * its own for the works to link (docs/decisions/0125-works.md). A URL or arXiv id match, or a
   * match with a story without identifiers, stays a duplicate.
   */
  function anotherVersion(c: C, reason: DuplicateReason, keptUrl: string): boolean {
    if (reason !== 'doi' && reason !== 'title') return false;
    const kept = freshByUrl.get(keptUrl) ?? known.articles.get(keptUrl);
    if (!kept) return false;
    const mine = versionRole(c);
    const theirs = versionRole({ doi: kept.doi, arxivId: kept.arxivId, url: keptUrl });
    return mine !== 'copy' && theirs !== 'copy' && mine !== theirs;
  }
  const enrichments = [...enriched].map((url) => {
    const a = known.articles.get(url)!;
    return { canonicalUrl: url, doi: a.doi, arxivId: a.arxivId, publishedAt: a.publishedAt };
  });
  return { fresh, skipped, enrichments, links };
}
