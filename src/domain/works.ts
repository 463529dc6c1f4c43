import { extractDoi, findDoi } from './doi.js';
import { normalizeArxivId, normalizeDoi } from './metrics.js';
import { MAX_HASHES, minhashKernel } from './minhash-kernel.js';

/**
 * Works: the versions of one paper (preprint, published version), copies of one story and the
 * articles that cover it, grouped. Rules only; storage and linking live in the works area.
 */

/** How an article stands in its work. `coverage` is an article of another work that links to it. */
export type VersionRole = 'preprint' | 'published' | 'copy' | 'coverage';

/** A paper identifier in one string: `doi:<lower-case doi>` or `arxiv:<id without version>`. */
export type IdentifierKey = `doi:${string}` | `arxiv:${string}`;

const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/i;

/** The key of a DOI; an arXiv DOI (10.48550/arXiv.<id>) is the arXiv id's key. */
export function doiIdentifier(raw: string): IdentifierKey | null {
  const doi = normalizeDoi(raw);
  if (!doi) return null;
  const arxiv = ARXIV_DOI.exec(doi);
  if (arxiv) return arxivIdentifier(arxiv[1]!);
  return `doi:${doi}`;
}

export function arxivIdentifier(raw: string): IdentifierKey | null {
  const id = normalizeArxivId(raw);
  return id ? `arxiv:${id}` : null;
}

/** The identifier keys of an article's own DOI and arXiv id (resolved by resolveIdentifiers). */
export function ownIdentifiers(ids: { doi: string | null; arxivId: string | null }): IdentifierKey[] {
  const out = new Set<IdentifierKey>();
  const d = ids.doi ? doiIdentifier(ids.doi) : null;
  if (d) out.add(d);
  const a = ids.arxivId ? arxivIdentifier(ids.arxivId) : null;
  if (a) out.add(a);
  return [...out];
}

/** Hosts of preprint servers: an article read from one is a preprint whatever DOI it carries. */
const PREPRINT_HOSTS =
  /(^|\.)(arxiv\.org|biorxiv\.org|medrxiv\.org|chemrxiv\.org|ssrn\.com|researchsquare\.com|preprints\.org|essopenarchive\.org|techrxiv\.org|authorea\.com|psyarxiv\.com|osf\.io)$/i;

/**
 * DOIs that preprint servers register (bioRxiv and medRxiv under Cold Spring Harbor's 10.1101, whose
 * journals use letters: 10.1101/gr.…; PeerJ Preprints; Research Square; ESS Open Archive; SSRN; the
 * OSF family; Preprints.org; ChemRxiv; Authorea; TechRxiv; an EGU journal's discussion paper,
 * 10.5194/acp-2021-781, against its final 10.5194/acp-22-1234-2022).
 */
const PREPRINT_DOIS = [
  /^10\.1101\/(\d{4}\.\d{2}\.\d{2}\.)?\d+(v\d+)?$/,
  /^10\.7287\/peerj\.preprints\./,
  /^10\.21203\/rs\./,
  /^10\.1002\/essoar\./,
  /^10\.22541\/essoar\./,
  /^10\.2139\/ssrn\./,
  /^10\.312\d\d\/osf\.io\//,
  /^10\.20944\/preprints/,
  /^10\.26434\/chemrxiv/,
  /^10\.22541\/au\./,
  /^10\.36227\/techrxiv/,
  /^10\.5194\/[a-z]+-\d{4}-\d+$/,
];

/** a preprint server's DOI (normalized, lower case) */
export const isPreprintDoi = (doi: string): boolean => PREPRINT_DOIS.some((p) => p.test(doi));

const preprintHost = (url: string | null | undefined): boolean => {
  if (!url) return false;
  try {
    return PREPRINT_HOSTS.test(new URL(url).hostname);
  } catch {
    return false;
  }
};

/**
 * The role of a version: read from a preprint server (its URL), or under a preprint server's DOI,
 * it is a preprint (an arXiv entry carries its journal version's DOI too, as `arxiv:doi`); else a
 * publisher's DOI makes it the published version and an arXiv id alone the preprint; an article with
 * neither is a copy of a story.
 */
export function versionRole(ids: {
  doi: string | null;
  arxivId: string | null;
  url?: string | null;
}): Exclude<VersionRole, 'coverage'> {
  const keys = ownIdentifiers(ids);
  if (!keys.length) return 'copy';
  if (preprintHost(ids.url)) return 'preprint';
  const dois = keys.filter((k) => k.startsWith('doi:')).map((k) => k.slice(4));
  if (dois.some((d) => !isPreprintDoi(d))) return 'published';
  return 'preprint';
}

const ROLE_RANK: Record<Exclude<VersionRole, 'coverage'>, number> = { published: 0, preprint: 1, copy: 2 };

/**
 * The version that stands for its work in a collapsed list: the published version first, else the
 * preprint, else the earliest (by publication, else storage time, then id for a stable choice).
 */
export function bestVersion<T extends { id: string; role: Exclude<VersionRole, 'coverage'>; at: Date }>(
  versions: readonly T[],
): T | null {
  let best: T | null = null;
  for (const v of versions) {
    if (
      !best ||
      ROLE_RANK[v.role] < ROLE_RANK[best.role] ||
      (ROLE_RANK[v.role] === ROLE_RANK[best.role] &&
        (v.at.getTime() < best.at.getTime() || (v.at.getTime() === best.at.getTime() && v.id < best.id)))
    )
      best = v;
  }
  return best;
}

/** Two identifiers that a citation API answer says name the same paper (or two versions of it). */
export interface IdentifierLink {
  from: IdentifierKey;
  to: IdentifierKey;
  /** where it was read, e.g. `crossref:has-preprint`, `semantic_scholar:externalIds` */
  evidence: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Crossref relations that name another version of the same work. */
export const CROSSREF_VERSION_RELATIONS = [
  'has-preprint',
  'is-preprint-of',
  'is-version-of',
  'has-version',
  'is-identical-to',
];

function crossrefRelationId(item: unknown): IdentifierKey | null {
  const o = obj(item);
  const id = str(o?.id);
  if (!id) return null;
  const type = (str(o?.['id-type']) ?? '').toLowerCase();
  if (type === 'arxiv') return arxivIdentifier(id);
  if (type === 'doi' || type === 'uri' || type === '') return doiIdentifier(id) ?? arxivIdentifier(id);
  return null;
}

/**
 * Crossref `/works/<doi>`: the work's own DOI linked to each id in its version relations
 * (`has-preprint`, `is-preprint-of`, `is-version-of`, `has-version`). Other relations (comments,
 * datasets a paper is based on, translations) are different works and are not read.
 */
export function crossrefLinks(body: unknown): IdentifierLink[] {
  const message = obj(obj(body)?.message);
  const self = str(message?.DOI);
  const from = self ? doiIdentifier(self) : null;
  if (!message || !from) return [];
  const relation = obj(message.relation);
  const out: IdentifierLink[] = [];
  for (const name of CROSSREF_VERSION_RELATIONS) {
    for (const item of arr(relation?.[name])) {
      const to = crossrefRelationId(item);
      if (to && to !== from) out.push({ from, to, evidence: `crossref:${name}` });
    }
  }
  return out;
}

/** Semantic Scholar paper: its `externalIds` DOI and ArXiv are one paper's. */
export function semanticScholarLinks(paper: unknown): IdentifierLink[] {
  const ext = obj(obj(paper)?.externalIds);
  if (!ext) return [];
  const doi = str(ext.DOI) ? doiIdentifier(str(ext.DOI)!) : null;
  const arxiv = str(ext.ArXiv) ? arxivIdentifier(str(ext.ArXiv)!) : null;
  return doi && arxiv && doi !== arxiv
    ? [{ from: doi, to: arxiv, evidence: 'semantic_scholar:externalIds' }]
    : [];
}

/**
 * OpenAlex work: its `doi` (or `ids.doi`) with every location's arXiv landing page or arXiv DOI
 * (OpenAlex merges a preprint into the published work as a location).
 */
export function openAlexLinks(work: unknown): IdentifierLink[] {
  const w = obj(work);
  if (!w) return [];
  const ids = obj(w.ids);
  const own = str(w.doi) ?? str(ids?.doi);
  const from = own ? doiIdentifier(own) : null;
  if (!from) return [];
  const out = new Map<string, IdentifierLink>();
  for (const loc of arr(w.locations)) {
    const l = obj(loc);
    for (const v of [str(l?.landing_page_url), str(l?.pdf_url)]) {
      if (!v) continue;
      const to = /arxiv\.org\//i.test(v)
        ? arxivIdentifier(v)
        : /doi\.org\//i.test(v)
          ? doiIdentifier(v)
          : null;
      if (to && to !== from) out.set(to, { from, to, evidence: 'openalex:locations' });
    }
  }
  return [...out.values()];
}

/**
 * An arXiv API (Atom) entry's `arxiv:doi` as read into an article's metadata by a feed
 * (`arxiv_doi`, `doi` of an article that also has an arXiv id): the preprint's published DOI.
 */
export function arxivEntryLinks(arxivId: string | null, metadata: Record<string, unknown>): IdentifierLink[] {
  const from = arxivId ? arxivIdentifier(arxivId) : null;
  const raw = str(metadata['arxiv:doi']) ?? str(metadata.arxiv_doi);
  const to = raw ? doiIdentifier(raw) : null;
  return from && to && to !== from ? [{ from, to, evidence: 'arxiv:doi' }] : [];
}

/* ---------------------------------------------------------------------------------------------- */
/* Near-identical texts: MinHash over word shingles                                                 */
/* ---------------------------------------------------------------------------------------------- */

/** Words per shingle. */
export const SHINGLE_WORDS = 4;
/** Words of a text read at most: bounds the work per article; a trimmed copy is still a prefix. */
export const MAX_WORDS = 5_000;
/** A text with fewer distinct shingles says too little to be judged a copy of another. */
export const MIN_SHINGLES = 25;
/** Hash functions of a signature. */
export const MINHASH_SIZE = 128;
/** Locality-sensitive buckets: BANDS bands of ROWS values each. */
export const BANDS = 32;
export const ROWS = MINHASH_SIZE / BANDS;
/**
 * Two texts are copies when this share of the shorter one's shingles is in the longer one
 * (estimated containment): a trimmed body keeps its whole text inside the longer one, an edited
 * wire copy most of it; two stories written apart on one event share a few phrases at most.
 */
export const COPY_CONTAINMENT = 0.8;
/** Copies are looked for among articles published this close in time (either side). */
export const COPY_WINDOW_MS = 72 * 60 * 60 * 1000;

export interface TextFingerprint {
  /** distinct shingles of the text */
  shingles: number;
  /** MINHASH_SIZE unsigned 32-bit minimums */
  signature: Uint32Array;
}

/** murmur3's finalizer: a good 32-bit mix */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** the signature's seeds: hash k is murmur3's finalizer of the shingle hash xor SEEDS[k] */
export const SEEDS = Uint32Array.from({ length: MINHASH_SIZE }, (_, i) => fmix((i + 1) * 0x9e3779b9));
/** the same loop in WebAssembly SIMD, four seeds an instruction (null without SIMD) */
const KERNEL = minhashKernel(SEEDS);

/** Lower-case words of letters and digits (any script), at most MAX_WORDS. */
export function words(text: string): string[] {
  // the runs between separators: split stops after MAX_WORDS (+ an empty run before a leading
  // separator and one after a trailing one), so a long text is not split whole
  const parts = text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u, MAX_WORDS + 2);
  const from = parts[0] === '' ? 1 : 0;
  const to = parts.length > from && parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
  return parts.slice(from, Math.min(to, from + MAX_WORDS));
}

/** The text's fingerprint, or null when it has fewer than MIN_SHINGLES shingles. */
export function fingerprint(text: string): TextFingerprint | null {
  const hashes = shingleHashes(text);
  if (hashes.length < MIN_SHINGLES) return null;
  const signature =
    KERNEL && hashes.length <= MAX_HASHES ? KERNEL.signature(hashes) : scalarSignature(hashes);
  return { shingles: hashes.length, signature };
}

/**
 * The distinct shingle hashes of a text (of its first MAX_WORDS words), in ascending order. In a
 * typed array and de-duplicated by sorting: hashes over 2^30 would be boxed one by one in a Set.
 */
export function shingleHashes(text: string): Uint32Array {
  const w = words(text);
  const n = Math.max(0, w.length - SHINGLE_WORDS + 1);
  const all = new Uint32Array(n);
  for (let i = 0; i < n; i++) all[i] = shingleHash(w, i);
  all.sort();
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || all[i] !== all[i - 1]) all[distinct++] = all[i]!;
  return all.subarray(0, distinct);
}

/** The signature in plain JavaScript: where WebAssembly SIMD is missing, and the kernel's reference. */
export function scalarSignature(hashes: Iterable<number>): Uint32Array {
  const signature = new Uint32Array(MINHASH_SIZE).fill(0xffffffff);
  for (const h of hashes) {
    for (let k = 0; k < MINHASH_SIZE; k++) {
      const v = fmix(h ^ SEEDS[k]!);
      if (v < signature[k]!) signature[k] = v;
    }
  }
  return signature;
}

/** fnv1a's offset basis as a 32-bit integer: the loop stays in integers (0x811c9dc5 is a double) */
const FNV_OFFSET = 0x811c9dc5 | 0;

/** fnv1a of the words `w[i]` to `w[i + SHINGLE_WORDS - 1]` joined by spaces, without joining them */
function shingleHash(w: readonly string[], i: number): number {
  let h = FNV_OFFSET;
  for (let j = i; j < i + SHINGLE_WORDS; j++) {
    if (j > i) h = Math.imul(h ^ 0x20, 0x01000193);
    const word = w[j]!;
    for (let c = 0; c < word.length; c++) h = Math.imul(h ^ word.charCodeAt(c), 0x01000193);
  }
  return h >>> 0;
}

/** The share of equal minimums: an estimate of the Jaccard similarity of the shingle sets. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let k = 0; k < MINHASH_SIZE; k++) if (a[k] === b[k]) same++;
  return same / MINHASH_SIZE;
}

/** Estimated share of the smaller set that is in the larger: |A∩B| = J/(1+J)·(|A|+|B|). */
export function containment(a: TextFingerprint, b: TextFingerprint): number {
  const j = jaccard(a.signature, b.signature);
  const common = (j / (1 + j)) * (a.shingles + b.shingles);
  return Math.min(1, common / Math.min(a.shingles, b.shingles));
}

export const isCopy = (a: TextFingerprint, b: TextFingerprint): boolean =>
  containment(a, b) >= COPY_CONTAINMENT;

/** The BANDS bucket keys of a signature (signed 32-bit, as stored): texts sharing one are compared. */
export function bandKeys(signature: Uint32Array): number[] {
  const out: number[] = [];
  for (let b = 0; b < BANDS; b++) {
    let h = fmix(b + 1);
    for (let r = 0; r < ROWS; r++) h = fmix(h ^ signature[b * ROWS + r]!);
    out.push(h | 0);
  }
  return out;
}

export const signatureToText = (s: Uint32Array): string =>
  Buffer.from(s.buffer, s.byteOffset, s.byteLength).toString('base64');
export function signatureFromText(t: string): Uint32Array {
  const buf = Buffer.from(t, 'base64');
  const out = new Uint32Array(MINHASH_SIZE);
  for (let k = 0; k < MINHASH_SIZE && k * 4 + 4 <= buf.length; k++) out[k] = buf.readUInt32LE(k * 4);
  return out;
}

/* ---------------------------------------------------------------------------------------------- */
/* Coverage: what an article's text links to or names                                              */
/* ---------------------------------------------------------------------------------------------- */

/** Links and identifiers read from one text at most: bounds the work on a hostile page. */
export const MAX_REFERENCES = 200;

export interface References {
  identifiers: IdentifierKey[];
  /** absolute http(s) links, as written */
  urls: string[];
}

const URL_RE = /https?:\/\/[^\s"'<>()[\]{}]+/gi;
const DOI_MENTION = /(?<![\w.])(?:doi:\s*)?10\.\d{4,9}\/[^\s"'<>]+/gi;
const ARXIV_MENTION = /\barxiv:\s*(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?/gi;

/**
 * The DOIs and arXiv ids an article's text or HTML names (doi.org and arxiv.org links, `doi:`,
 * bare DOIs, `arXiv:<id>`) and its other links, each once, at most MAX_REFERENCES of each.
 */
export function references(...texts: (string | null | undefined)[]): References {
  const ids = new Set<IdentifierKey>();
  const urls = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    const t = text.slice(0, 500_000);
    for (const m of t.matchAll(URL_RE)) {
      if (urls.size >= MAX_REFERENCES && ids.size >= MAX_REFERENCES) break;
      const u = m[0].replace(/[.,;:!?]+$/, '').replace(/&amp;/g, '&');
      const id = /arxiv\.org\/(?:abs|pdf|html)\//i.test(u)
        ? arxivIdentifier(u)
        : /doi\.org\/10\./i.test(u)
          ? doiIdentifier(u)
          : null;
      if (id) {
        if (ids.size < MAX_REFERENCES) ids.add(id);
      } else if (urls.size < MAX_REFERENCES) urls.add(u);
    }
    for (const m of t.matchAll(DOI_MENTION)) {
      if (ids.size >= MAX_REFERENCES) break;
      const doi = findDoi(m[0]);
      const id = doi ? doiIdentifier(extractDoi(doi) ?? doi) : null;
      if (id) ids.add(id);
    }
    for (const m of t.matchAll(ARXIV_MENTION)) {
      if (ids.size >= MAX_REFERENCES) break;
      const id = arxivIdentifier(m[1]!);
      if (id) ids.add(id);
    }
  }
  return { identifiers: [...ids], urls: [...urls] };
}
