/**
 * Grounding of a written report. The local pass: each sentence that carries [N] is checked against
 * the stored text of source N. Its figures and names must occur in the source and most of its key
 * terms too; a number that points to no source fails at once. A sentence the cited source does not
 * support but another one does gets that number instead; one nothing supports is dropped.
 * The pieces a language model's judgement builds on are here too (the cited sentences of a draft,
 * the decision per sentence, a quote found in its source, the passages a claim is about).
 * Pure functions, no I/O.
 */

export type Support = 'supported' | 'partial' | 'unsupported';

export interface Evidence {
  n: number;
  quote: string;
}

export interface GroundedSentence {
  /** position of the sentence in the report (0-based, every sentence counted) */
  index: number;
  text: string;
  citations: number[];
  support: Support;
  evidence: Evidence[];
  /** the sentence as first written, when the model revised it with the evidence */
  revised_from?: string;
}

export type RemovalReason =
  | 'citation_out_of_range'
  | 'figure_not_in_source'
  | 'not_in_source'
  /** the model judged that its source does not say it */
  | 'unsupported_by_model'
  /** the model called it supported but its quote is not in the source */
  | 'quote_not_in_source';

export interface Removal {
  /** the sentence as written */
  text: string;
  /** why the sentence as written failed */
  reason: RemovalReason;
  /** the model's revision with the evidence, which failed the check again */
  revised?: string;
}

export interface Grounding {
  /** share of the kept cited sentences that their sources support (partial counts half) */
  score: number;
  method: 'model' | 'local';
  checked_at: string;
  sentences: GroundedSentence[];
  removed: Removal[];
}

const MARKERS = /\s*\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
const QUOTE_MAX = 300;
const STOP = new Set(
  (
    'about above after again also among and are because been before being between both but can could ' +
    'did does doing during each few for from further had has have having here how into its itself ' +
    'just more most much new now off once only other our out over own same she should some such than ' +
    'that the their them then there these they this those through too under until very was were what ' +
    'when where which while who whom why will with within without would week weeks this year report'
  ).split(' '),
);

export const citationsOf = (s: string): number[] => {
  const out = new Set<number>();
  for (const m of s.matchAll(MARKERS)) for (const n of m[1]!.split(',')) out.add(Number(n));
  return [...out];
};
export const stripMarkers = (s: string): string => s.replace(MARKERS, '').trim();
/** numbers as written, without thousands separators: 3, 6.5, 1200 */
const numbersOf = (s: string) =>
  new Set((s.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => n.replace(/,(?=\d{3}\b)/g, '')));
/** capitalised words after the first, acronyms, and words with digits or capitals inside */
function entitiesOf(s: string): string[] {
  const words = s.match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? [];
  return words.filter(
    (w, i) =>
      w.length > 1 &&
      !/^\d+$/.test(w) &&
      (/^\p{Lu}{2,}/u.test(w) || (i > 0 && /^\p{Lu}/u.test(w)) || /\p{Ll}\p{Lu}|\p{L}\d|\d\p{L}/u.test(w)),
  );
}
/** a crude stem: plural and verb endings off, at most 7 letters */
const stem = (w: string) => w.replace(/(ies|es|s|ed|ing|ly)$/u, '').slice(0, 7);
function termsOf(s: string): string[] {
  const latin = (s.toLowerCase().match(/\p{L}[\p{L}-]*/gu) ?? [])
    .filter((w) => w.length >= 4 && !STOP.has(w) && !/\p{Script=Han}/u.test(w))
    .map(stem);
  // Chinese has no spaces: its character pairs are its terms
  const han = [...s.matchAll(/\p{Script=Han}+/gu)].flatMap((m) => {
    const t = m[0];
    return Array.from({ length: Math.max(0, t.length - 1) }, (_, i) => t.slice(i, i + 2));
  });
  return [...new Set([...latin, ...han])];
}

interface SourceIndex {
  lower: string;
  numbers: Set<string>;
  terms: Set<string>;
  sentences: string[];
}

function indexSource(text: string): SourceIndex {
  const flat = flatText(text);
  return {
    lower: flat.toLowerCase(),
    numbers: numbersOf(flat),
    terms: new Set(termsOf(flat)),
    sentences: flat.split(/(?<=[.!?。！？])\s+/u).filter((x) => x.length > 0),
  };
}

interface Verdict {
  support: Support;
  reason: RemovalReason;
  /** how much of the sentence the source holds: ranks candidate sources */
  strength: number;
}

function judge(claim: string, source: SourceIndex): Verdict {
  const numbers = [...numbersOf(claim)];
  const missingNumbers = numbers.filter((n) => !source.numbers.has(n));
  const entities = entitiesOf(claim);
  const missingEntities = entities.filter((e) => !source.lower.includes(e.toLowerCase()));
  const terms = termsOf(claim);
  const found = terms.filter((t) => source.terms.has(t)).length;
  const ratio = terms.length ? found / terms.length : 1;
  const strength =
    ratio +
    (numbers.length - missingNumbers.length) * 0.5 +
    (entities.length - missingEntities.length) * 0.25;
  if (missingNumbers.length) return { support: 'unsupported', reason: 'figure_not_in_source', strength };
  if (missingEntities.length * 2 > entities.length || ratio < 0.35)
    return { support: 'unsupported', reason: 'not_in_source', strength };
  if (missingEntities.length || ratio < 0.6) return { support: 'partial', reason: 'not_in_source', strength };
  return { support: 'supported', reason: 'not_in_source', strength };
}

/** The shortest source sentence that holds most of the claim's terms and figures. */
function quoteFor(claim: string, source: SourceIndex): string {
  const terms = termsOf(claim);
  const numbers = [...numbersOf(claim)];
  let best = '';
  let bestScore = -1;
  for (const s of source.sentences) {
    const own = new Set(termsOf(s));
    const nums = numbersOf(s);
    const score = terms.filter((t) => own.has(t)).length + numbers.filter((n) => nums.has(n)).length * 2;
    if (score > bestScore || (score === bestScore && s.length < best.length)) {
      best = s;
      bestScore = score;
    }
  }
  return best.length > QUOTE_MAX ? `${best.slice(0, QUOTE_MAX - 1)}…` : best;
}

/** Splits a line of prose into sentences, each keeping the markers that follow its stop. */
export function splitSentences(line: string): string[] {
  return line
    .split(/(?<=[.!?。！？](?:\s*\[\d{1,3}(?:\s*,\s*\d{1,3})*\])*)\s+(?!\[\d)/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The sentence with its markers replaced by `[n]…` for these numbers, before its closing stop. */
export function recite(sentence: string, ns: number | number[]): string {
  const bare = stripMarkers(sentence);
  const stop = /[.!?。！？]$/u.exec(bare)?.[0] ?? '';
  const marks = (Array.isArray(ns) ? ns : [ns]).map((n) => `[${n}]`).join('');
  return `${bare.slice(0, bare.length - stop.length)} ${marks}${stop}`;
}

const LINE_PREFIX = /^(\s*(?:[-*]|\d+\.)\s+|#{1,6}\s+)?(.*)$/;

/** What the local pass finds of one cited sentence. */
export interface LocalCheck {
  support: Support;
  /** why, when unsupported */
  reason: RemovalReason;
  /** the numbers it cites once checked: a wrong number is replaced by the source that holds it */
  citations: number[];
  /** the sentence with those numbers */
  text: string;
  evidence: Evidence[];
}

/** A sentence of a draft that carries [N], with what the local pass found. */
export interface CitedSentence {
  /** position of the sentence in the draft (0-based, every sentence counted) */
  index: number;
  /** as written, with its markers */
  sentence: string;
  /** without its markers */
  claim: string;
  /** the numbers as written */
  cited: number[];
  local: LocalCheck;
}

/** The local check of sentences against a fixed set of sources, each source indexed once. */
export interface LocalChecker {
  check(sentence: string): LocalCheck;
  /** up to k sources (numbers) that hold most of the claim, best first, but for `except` */
  closest(claim: string, except: number[], k: number): number[];
}

/** `sources[N-1]` is the text of source N. */
export function localChecker(sources: string[]): LocalChecker {
  const index = sources.map(indexSource);
  const check = (sentence: string): LocalCheck => {
    const cited = citationsOf(sentence);
    const claim = stripMarkers(sentence);
    const inRange = cited.length > 0 && cited.every((n) => n >= 1 && n <= sources.length);
    let verdict: Verdict = inRange
      ? judge(
          claim,
          cited.length === 1
            ? index[cited[0]! - 1]!
            : indexSource(cited.map((n) => sources[n - 1]).join('\n')),
        )
      : { support: 'unsupported', reason: 'citation_out_of_range', strength: 0 };
    let citations = inRange ? cited : [];
    let text = sentence;
    if (verdict.support === 'unsupported') {
      // another source may hold it: the best one that supports it gets the citation
      let best: { n: number; v: Verdict } | null = null;
      index.forEach((src, i) => {
        const v = judge(claim, src);
        if (v.support === 'supported' && (!best || v.strength > best.v.strength)) best = { n: i + 1, v };
      });
      const found = best as { n: number; v: Verdict } | null;
      if (found) {
        verdict = found.v;
        citations = [found.n];
        text = recite(sentence, found.n);
      }
    }
    return {
      support: verdict.support,
      reason: verdict.reason,
      citations,
      text,
      evidence:
        verdict.support === 'unsupported'
          ? []
          : citations.map((n) => ({ n, quote: quoteFor(claim, index[n - 1]!) })),
    };
  };
  const closest = (claim: string, except: number[], k: number): number[] =>
    index
      .map((src, i) => ({ n: i + 1, strength: judge(claim, src).strength }))
      .filter((x) => x.strength > 0 && !except.includes(x.n))
      .sort((a, b) => b.strength - a.strength || a.n - b.n)
      .slice(0, k)
      .map((x) => x.n);
  return { check, closest };
}

/** Walks a draft's Markdown line by line, sentence by sentence (the one order both passes share). */
function walk(text: string, visit: (sentence: string, index: number) => string | null): string {
  let ordinal = 0;
  const out: string[] = [];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    const [, prefix = '', body = ''] = LINE_PREFIX.exec(line)!;
    if (!body.trim()) {
      out.push(line);
      continue;
    }
    const kept: string[] = [];
    for (const sentence of splitSentences(body)) {
      const next = visit(sentence, ordinal++);
      if (next !== null) kept.push(next);
    }
    // a list item or heading whose every sentence went goes with them
    if (kept.length) out.push(`${prefix}${kept.join(' ')}`);
  }
  return out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The sentences of a draft that cite, each checked locally against `sources`. */
export function citedSentences(text: string, sources: string[]): CitedSentence[] {
  const { check } = localChecker(sources);
  const out: CitedSentence[] = [];
  walk(text, (sentence, index) => {
    const cited = citationsOf(sentence);
    if (cited.length)
      out.push({ index, sentence, claim: stripMarkers(sentence), cited, local: check(sentence) });
    return sentence;
  });
  return out;
}

/** What becomes of a cited sentence: kept (maybe re-cited or revised), or removed with its reason. */
export type Decision = { keep: GroundedSentence } | { remove: Removal };

/** Score over the kept cited sentences: supported counts 1, partial half. */
export function groundingScore(sentences: GroundedSentence[]): number {
  if (!sentences.length) return 0;
  const points = sentences.reduce(
    (s, x) => s + (x.support === 'supported' ? 1 : x.support === 'partial' ? 0.5 : 0),
    0,
  );
  return Math.round((points / sentences.length) * 1000) / 1000;
}

/**
 * The grounded text of a draft and its grounding, from a decision per cited sentence (by its
 * index; a cited sentence without one is removed as not in any source). Uncited sentences stay.
 */
export function assembleGrounded(
  text: string,
  decisions: Map<number, Decision>,
  method: Grounding['method'],
  now: Date,
): { text: string; grounding: Grounding } {
  const sentences: GroundedSentence[] = [];
  const removed: Removal[] = [];
  const grounded = walk(text, (sentence, index) => {
    if (!citationsOf(sentence).length) return sentence;
    const d = decisions.get(index) ?? { remove: { text: sentence, reason: 'not_in_source' as const } };
    if ('remove' in d) {
      removed.push(d.remove);
      return null;
    }
    sentences.push(d.keep);
    return d.keep.text;
  });
  return {
    text: grounded,
    grounding: {
      score: groundingScore(sentences),
      method,
      checked_at: now.toISOString(),
      sentences,
      removed,
    },
  };
}

/** A sentence kept as the local pass found it. */
export function keepLocal(c: CitedSentence): Decision {
  return c.local.support === 'unsupported'
    ? { remove: { text: c.sentence, reason: c.local.reason } }
    : {
        keep: {
          index: c.index,
          text: c.local.text,
          citations: c.local.citations,
          support: c.local.support,
          evidence: c.local.evidence,
        },
      };
}

/**
 * The local pass over a report's Markdown: `sources[N-1]` is the stored text (title, summary,
 * content) of source N. Answers the grounded text (corrected numbers, unsupported sentences out)
 * and what was found.
 */
export function groundLocally(
  text: string,
  sources: string[],
  now: Date,
): { text: string; grounding: Grounding } {
  const decisions = new Map(citedSentences(text, sources).map((c) => [c.index, keepLocal(c)]));
  return assembleGrounded(text, decisions, 'local', now);
}

/** A source's text as the checks read it: markup out, whitespace collapsed. */
export const flatText = (text: string): string =>
  text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** Case, whitespace, typographic quotes and dashes folded; `at[i]` is where char i came from. */
function folded(text: string): { text: string; at: number[] } {
  let out = '';
  const at: number[] = [];
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/u.test(c)) {
      if (!space && out.length) {
        out += ' ';
        at.push(i);
      }
      space = true;
      continue;
    }
    space = false;
    const f = c
      .replace(/[‘’‚‛′]/gu, "'")
      .replace(/[“”„‟″]/gu, '"')
      .replace(/[‐‑‒–—―−]/gu, '-')
      .toLowerCase();
    for (const ch of f) {
      out += ch;
      at.push(i);
    }
  }
  if (out.endsWith(' ')) {
    out = out.slice(0, -1);
    at.pop();
  }
  return { text: out, at };
}

/** A quote shorter than this proves nothing (a word or two occurs almost anywhere). */
export const QUOTE_MIN = 8;

/**
 * The passage of `source` a model's quote names, as the source writes it: the quote must occur
 * in the source once case, whitespace, typographic quotes and dashes are folded (surrounding
 * quotation marks and ellipses ignored); null when it does not, or is too short to be evidence.
 */
export function findQuote(quote: string, source: string): string | null {
  const q = folded(
    quote.replace(/^[\s"'“”‘’«»「『…]+|[\s"'“”‘’«»」』…]+$/gu, '').replace(/^\.{3}|\.{3}$/g, ''),
  ).text.trim();
  if (q.length < QUOTE_MIN) return null;
  const flat = flatText(source);
  const f = folded(flat);
  const i = f.text.indexOf(q);
  if (i < 0) return null;
  const found = flat.slice(f.at[i]!, f.at[i + q.length - 1]! + 1);
  return found.length > QUOTE_MAX ? `${found.slice(0, QUOTE_MAX - 1)}…` : found;
}

/**
 * The passages of a source most relevant to some claims, at most `maxChars` long: its sentences
 * ranked by shared key terms and figures, kept in the source's order, gaps marked with " … ".
 * The whole (flattened) source when it fits.
 */
export function relevantPassages(source: string, claims: string[], maxChars: number): string {
  const flat = flatText(source);
  if (flat.length <= maxChars) return flat;
  const terms = new Set(claims.flatMap(termsOf));
  const numbers = new Set(claims.flatMap((c) => [...numbersOf(c)]));
  const sentences = flat.split(/(?<=[.!?。！？])\s+/u).filter(Boolean);
  const ranked = sentences
    .map((s, i) => {
      const own = termsOf(s);
      const score =
        own.filter((t) => terms.has(t)).length + [...numbersOf(s)].filter((n) => numbers.has(n)).length * 2;
      return { s, i, score };
    })
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen: typeof ranked = [];
  let used = 0;
  for (const r of ranked) {
    const cost = r.s.length + 3;
    if (used + cost > maxChars) {
      if (!chosen.length) chosen.push({ ...r, s: `${r.s.slice(0, maxChars - 1)}…` });
      continue;
    }
    chosen.push(r);
    used += cost;
  }
  chosen.sort((a, b) => a.i - b.i);
  return chosen
    .map((r, k) => (k > 0 && chosen[k - 1]!.i !== r.i - 1 ? ` … ${r.s}` : k > 0 ? ` ${r.s}` : r.s))
    .join('');
}

/**
 * The grounding of a text whose markers were then renumbered (`order[k]` is the 0-based position,
 * in the checked text, of the source now cited as [k+1]): citations, evidence and sentence texts
 * follow the new numbers.
 */
export function renumberGrounding(g: Grounding, order: number[]): Grounding {
  const next = new Map(order.map((from, k) => [from + 1, k + 1]));
  const map = (n: number) => next.get(n) ?? n;
  return {
    ...g,
    sentences: g.sentences.map((s) => ({
      ...s,
      text: s.text.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (_all, group: string) =>
        group
          .split(',')
          .map((n) => `[${map(Number(n.trim()))}]`)
          .join(''),
      ),
      citations: s.citations.map(map),
      evidence: s.evidence.map((e) => ({ ...e, n: map(e.n) })),
    })),
  };
}
