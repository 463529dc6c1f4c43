/**
 * The reader's search query (`q` of GET /articles), as far as code needs to understand it: the
 * database parses the websearch syntax itself (websearch_to_tsquery); here we only find the terms
 * to highlight and whether the query is one plain phrase (no quotes, OR or -exclusion), which is
 * also matched as a substring through the trigram index (CJK text and partial words).
 */
import type { SnippetSegment } from './articles.js';

export interface SearchQuery {
  /** the query as given, trimmed */
  text: string;
  /** words and quoted phrases that should appear (exclusions and OR left out), lower case */
  terms: string[];
  /** no websearch operators: the whole text is also matched as a substring */
  plain: boolean;
}

/** a search uses at most this many terms (words or quoted phrases) */
export const MAX_SEARCH_TERMS = 8;
/** a word matches as a prefix from this many characters on; shorter words match whole */
export const PREFIX_MIN_CHARS = 3;

/**
 * The terms a search uses, in order: one-character terms are left out when the query has longer
 * ones (a one-letter prefix matches most of a corpus), and at most MAX_SEARCH_TERMS.
 */
export function boundedTerms(terms: readonly string[]): string[] {
  const long = terms.filter((t) => [...t].length > 1);
  return (long.length ? long : [...terms]).slice(0, MAX_SEARCH_TERMS);
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
export const hasCjk = (s: string) => CJK.test(s);

export function parseSearch(q: string): SearchQuery {
  const text = q.trim();
  const terms: string[] = [];
  let plain = true;
  const re = /(-?)"([^"]*)"?|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[2] !== undefined) {
      plain = false;
      if (m[1] !== '-' && m[2].trim()) terms.push(m[2].trim().toLowerCase());
      continue;
    }
    const word = m[3]!;
    if (/^or$/i.test(word)) {
      plain = false;
      continue;
    }
    if (word.startsWith('-') && word.length > 1) {
      plain = false;
      continue;
    }
    const cleaned = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase();
    if (cleaned) terms.push(cleaned);
  }
  return { text, terms, plain };
}

/** a word's stem for highlighting: English stemming reduces "models" and "modelling" to "model" */
function stemOf(term: string): string {
  if (hasCjk(term)) return term;
  const s = term.replace(/(ing|ed|es|s)$/u, '');
  return s.length >= 3 ? s : term;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern that finds every term in a text: CJK as substrings, words by their stem at a word start. */
function termPattern(terms: readonly string[]): RegExp | null {
  const parts = [...new Set(terms.map(stemOf))]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((t) =>
      hasCjk(t)
        ? escapeRe(t)
        : [...t].length < PREFIX_MIN_CHARS
          ? `(?<![\\p{L}\\p{N}])${escapeRe(t)}(?![\\p{L}\\p{N}])`
          : `(?<![\\p{L}\\p{N}])${escapeRe(t)}[\\p{L}\\p{N}]*`,
    );
  return parts.length ? new RegExp(parts.join('|'), 'giu') : null;
}

export const SNIPPET_CHARS = 200;

/**
 * The excerpt of the best-matching field (the one with the most term occurrences, earlier fields
 * winning ties), about `maxChars` long around its first match, split into plain-text segments.
 * Null when no field matches a term (e.g. a trigram match of a partial word that is no term).
 */
export function buildSnippet(
  fields: readonly (string | null | undefined)[],
  terms: readonly string[],
  maxChars = SNIPPET_CHARS,
): SnippetSegment[] | null {
  const pattern = termPattern(boundedTerms(terms));
  if (!pattern) return null;
  let best: { text: string; count: number; first: number } | null = null;
  for (const raw of fields) {
    if (!raw) continue;
    const text = raw.replace(/\s+/g, ' ').trim();
    const matches = [...text.matchAll(pattern)];
    if (matches.length && (!best || matches.length > best.count))
      best = { text, count: matches.length, first: matches[0]!.index };
  }
  if (!best) return null;
  let start = Math.max(0, best.first - Math.floor(maxChars / 3));
  // start at a word boundary when one is near
  if (start > 0) {
    const space = best.text.indexOf(' ', start);
    if (space !== -1 && space < best.first) start = space + 1;
  }
  const end = Math.min(best.text.length, start + maxChars);
  const window = best.text.slice(start, end);
  const segments: SnippetSegment[] = [];
  const push = (text: string, highlight: boolean) => {
    if (text) segments.push({ text, highlight });
  };
  if (start > 0) push('…', false);
  let at = 0;
  for (const m of window.matchAll(pattern)) {
    push(window.slice(at, m.index), false);
    push(m[0], true);
    at = m.index + m[0].length;
  }
  push(window.slice(at), false);
  if (end < best.text.length) push('…', false);
  return mergePlain(segments);
}

function mergePlain(segments: SnippetSegment[]): SnippetSegment[] {
  const out: SnippetSegment[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && !last.highlight && !s.highlight) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}
