/**
 * DOIs as Crossref documents them ("DOIs and matching regular expressions", Crossref blog, 2015):
 * the modern pattern `/^10.\d{4,9}/[-._;()/:A-Z0-9]+$/i` covers 99.3 % of Crossref's DOIs; the rest
 * are mostly early Wiley DOIs (`/^10.1002/[^\s]+$/i`), SICI-shaped DOIs with `<…>` (or BioOne's
 * `[…]`) and a `;2-X` check character that may itself be `#`, and the `&` DOIs of prefix 10.1207.
 * DOIs are case-insensitive: `doiKey` is the form compared and stored.
 */

/** Crossref's published pattern for modern DOIs. */
export const CROSSREF_DOI = /^10\.\d{4,9}\/[-._;()/:A-Z0-9]+$/i;
/** Early Wiley DOIs: anything without white space (only for a value that is a DOI as a whole). */
const WILEY_EARLY = /^10\.1002\/\S+$/;
/**
 * SICI-shaped DOIs (Wiley with or without `(SICI)`, AMS, BioOne):
 * ISSN(chronology)enumeration<item:code>version.CO;check, e.g.
 * 10.1002/(SICI)1097-0185(19990415)257:2<73::AID-AR8>3.0.CO;2-B, 10.1175/1520-0469(1999)056<0597:TEOTMO>2.0.CO;2
 * Matched from the start of a run, so that text glued after it is not taken.
 */
const SICI =
  /^10\.\d{4,9}\/(?:\(SICI\))?\d{4}-?\d{3}[\dX]\([^\s()<>]+\)[^\s<>[\]]*?(?:<[^\s<>]*>|\[[^\s[\]]*\])[^\s<>[\]]*?\d\.\d\.[A-Z]{2};\d(?:-[\dA-Z#])?/i;
/** Lawrence Erlbaum (10.1207) DOIs with an ampersand, e.g. 10.1207/s15327752jpa8502&3_03 */
const ERLBAUM = /^10\.1207\/[\w\d]+&\d+_\d+/i;
/** The longest run of modern DOI characters. */
const MODERN_RUN = /^10\.\d{4,9}\/[-._;()/:A-Z0-9]+/i;

/** Where a DOI may start in free text: not glued to a word, a number or a dot before it. */
const START = /(?<![\w.])10\.\d{4,9}\//g;
/** Longer than any registered DOI: bounds the work per candidate. */
const MAX_DOI = 512;
/** Candidates looked at per text: with MAX_DOI, bounds the work on hostile text to a linear scan. */
const MAX_CANDIDATES = 64;
/** A token that is a URL (or a URI form of a DOI): its DOI is percent-encoded and ends at ? or #. */
const URL_TOKEN = /^(?:[a-z][a-z\d+.-]*:\/\/|info:doi\/|urn:doi:)/i;
/** Prefixes of a value that is a DOI as a whole. */
const DOI_PREFIX = /^(?:doi:\s*|info:doi\/|urn:doi:|(?:https?:\/\/)?(?:dx\.|www\.)?doi\.org\/)/i;

/** Whether `s` as a whole is a DOI by one of Crossref's patterns. */
export function isDoi(s: string): boolean {
  if (s.length > MAX_DOI) return false;
  if (CROSSREF_DOI.test(s)) return true;
  // the catch-all takes no markup, quotes or sentence punctuation glued to its end
  if (WILEY_EARLY.test(s) && !/<\/?[a-z]|["']/i.test(s) && trimTrail(s) === s) return true;
  const sici = SICI.exec(s) ?? ERLBAUM.exec(s);
  return !!sici && sici[0].length === s.length;
}

/** The form DOIs are compared and stored in: DOIs are case-insensitive (DOI Handbook 2.4). */
export const doiKey = (doi: string): string => doi.toLowerCase();

/**
 * A value meant to be one DOI (prism:doi, dc:identifier, a doi.org link, an API field):
 * `doi:`, `info:doi/` and resolver prefixes removed, percent-encoding of links decoded.
 * Falls back to scanning the value as text. Case is kept.
 */
export function parseDoi(value: string): string | null {
  const s = value.trim();
  const prefix = DOI_PREFIX.exec(s);
  if (prefix) {
    const isLink = /^(?:https?:|info:|urn:)/i.test(prefix[0]) || /doi\.org\/$/i.test(prefix[0]);
    let rest = s.slice(prefix[0].length);
    if (isLink) rest = decodePercent(cutQuery(rest));
    if (isWholeDoi(rest)) return rest;
  } else if (isWholeDoi(s)) return s;
  return findDoi(s);
}

/** A whole value that is a DOI, without sentence punctuation after it (that is text: scanned). */
const isWholeDoi = (s: string): boolean => isDoi(s) && trimTrail(s) === s;

/** The first DOI in free text (links, citations, `doi:` mentions). Case is kept. Linear in length. */
export function findDoi(text: string): string | null {
  START.lastIndex = 0;
  let tries = 0;
  for (let m = START.exec(text); m && tries < MAX_CANDIDATES; m = START.exec(text), tries++) {
    const found = doiAt(text, m.index);
    if (found) return found;
  }
  return null;
}

/** The first DOI among the texts, in order, as its comparison key (lower case). */
export function extractDoi(...texts: (string | null | undefined)[]): string | null {
  for (const t of texts) {
    if (!t) continue;
    const doi = parseDoi(t);
    if (doi) return doiKey(doi);
  }
  return null;
}

function doiAt(text: string, start: number): string | null {
  let run = text.slice(start, start + MAX_DOI * 3);
  const end = run.search(/[\s"\p{Cc}]/u);
  if (end >= 0) run = run.slice(0, end);
  if (isUrlToken(text, start)) run = decodePercent(cutQuery(run));
  else run = run.replace(/&lt;/gi, '<').replace(/&gt;/gi, '>').replace(/&amp;/gi, '&');
  return resolveRun(run.slice(0, MAX_DOI));
}

/** The DOI at the start of a run of non-space characters: a historical shape, else the modern one. */
function resolveRun(run: string): string | null {
  const special = SICI.exec(run) ?? ERLBAUM.exec(run);
  if (special && !/^[A-Z0-9]/i.test(run.slice(special[0].length))) return special[0];
  const modern = MODERN_RUN.exec(run);
  if (!modern) return null;
  const doi = trimTrail(modern[0]);
  return CROSSREF_DOI.test(doi) ? doi : null;
}

/** Sentence punctuation and unbalanced closing brackets after a DOI belong to the text around it. */
function trimTrail(s: string): string {
  for (;;) {
    const last = s[s.length - 1];
    if (last === undefined) return s;
    const open = { ')': '(', ']': '[', '}': '{', '>': '<' }[last];
    if (open) {
      if (count(s, open) >= count(s, last)) return s;
    } else if (!/[.,;:!?'"*\u2019\u201d\u00bb\u3002\u3001\uff0c\uff1b\uff1a]/u.test(last)) return s;
    s = s.slice(0, -1);
  }
}

const count = (s: string, ch: string): number => s.split(ch).length - 1;

/** Whether the white-space-delimited token holding `start` is a URL (bounded look-back). */
function isUrlToken(text: string, start: number): boolean {
  let i = start;
  const stop = Math.max(0, start - 2048);
  while (i > stop && !/\s/.test(text[i - 1]!)) i--;
  const token = text.slice(i, start);
  // markdown or HTML around the link (`](`, `href="`, `<`): look at the piece after the last of them
  return URL_TOKEN.test(token.split(/[("'<=[]/).pop()!);
}

/**
 * A link's path ends at `?` or `#`. A SICI check character `#` written unescaped is kept: it is the
 * last character of the DOI, not an empty fragment.
 */
function cutQuery(s: string): string {
  const q = s.search(/[?#]/);
  if (q < 0) return s;
  if (s[q] === '#' && /;\d-$/.test(s.slice(0, q)) && !/^#[A-Z0-9]/i.test(s.slice(q))) {
    return s.slice(0, q + 1);
  }
  return s.slice(0, q);
}

/** Decodes %XX sequences that form valid UTF-8; leaves any other `%` as it is. */
function decodePercent(s: string): string {
  return s.replace(/(?:%[0-9a-f]{2})+/gi, (seq) => {
    try {
      return decodeURIComponent(seq);
    } catch {
      return seq;
    }
  });
}
