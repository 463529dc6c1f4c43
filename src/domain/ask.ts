/**
 * Asking the corpus, the pure part: the question's language and search terms, reciprocal rank
 * fusion of the full-text and embedding rankings, and the paragraph-sized windows an article is
 * cut into so that the model (or the extractive answer) sees a bounded passage of each.
 * No I/O.
 */

export type AskLanguage = 'en' | 'zh-TW';
export const ASK_LANGUAGES: readonly AskLanguage[] = ['en', 'zh-TW'];
export const QUESTION_MAX_CHARS = 500;

/** Reciprocal rank fusion's constant: rank r in a list adds 1 / (RRF_K + r). */
export const RRF_K = 60;
/** passages given to the model (one per article) */
export const MAX_PASSAGES = 8;
/** characters of one passage */
export const PASSAGE_MAX_CHARS = 600;
/** terms of one question that reach the full-text index (words and CJK bigrams together) */
export const MAX_QUESTION_TERMS = 12;

const HAN = /\p{Script=Han}/gu;
const HAN_ONE = /\p{Script=Han}/u;
const LATIN = /[A-Za-z]/g;

/** zh-TW when the question is mostly written in Chinese characters, else en. */
export function detectLanguage(text: string): AskLanguage {
  const han = text.match(HAN)?.length ?? 0;
  const latin = text.match(LATIN)?.length ?? 0;
  // a Chinese character carries about as much as a short English word
  return han > 0 && han * 3 >= latin ? 'zh-TW' : 'en';
}

const STOP = new Set(
  (
    'a about above according after again all also an and any are article articles as at be been before ' +
    'being between both but by can could did do does doing during each few find for found from further ' +
    'had has have having he her here hers him his how i if in into is it its itself just me more most my ' +
    'no nor not now of off on once only or other our out over own report reported reports said same say ' +
    'says she should so some story such many much tell than that the their theirs them then there these they this ' +
    'those through to told too under until up us very was we were what whatever when where whether which ' +
    'while who whom whose why will with would you your according per did does new news'
  ).split(' '),
);

/** Characters that make a Chinese question a question rather than its subject. */
const HAN_STOP = new Set([
  ...'的了是在有什麼哪誰嗎呢何為如些個這那與和及於對被把也都就還會能可以篇則該其中之而請問多少幾時候怎樣',
]);

/** NFKC, with Chinese runs set apart from the letters and digits next to them ("helium-4的" → "helium-4 的"). */
const apart = (text: string) => text.normalize('NFKC').replace(/\p{Script=Han}+/gu, ' $& ');

/** Latin stems: a crude folding so that "models" and "model" meet. */
const stem = (w: string) => w.replace(/(ies|es|s|ed|ing|ly)$/u, '').slice(0, 8) || w;

/**
 * The words of a question worth looking up, in order: Latin words (not stop words, at least 3
 * letters, or 2 when digits or capitals are in it) and the character bigrams of its Chinese runs
 * (split at function characters). At most MAX_QUESTION_TERMS, letters and digits only.
 */
export function questionTerms(question: string): { words: string[]; bigrams: string[] } {
  const words: string[] = [];
  for (const raw of apart(question).match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (HAN_ONE.test(raw)) continue;
    const w = raw.toLowerCase();
    const short = w.length < 3 && !(/\d/.test(w) && w.length === 2) && !/^\p{Lu}{2}$/u.test(raw);
    if (short || STOP.has(w) || /^\d$/.test(w)) continue;
    if (!words.includes(w)) words.push(w);
  }
  const bigrams: string[] = [];
  for (const run of question.normalize('NFKC').match(/\p{Script=Han}+/gu) ?? []) {
    for (const piece of [...run].reduce<string[][]>(
      (acc, ch) => {
        if (HAN_STOP.has(ch)) acc.push([]);
        else acc[acc.length - 1]!.push(ch);
        return acc;
      },
      [[]],
    )) {
      for (let i = 0; i + 1 < piece.length; i++) {
        const g = `${piece[i]}${piece[i + 1]}`;
        if (!bigrams.includes(g)) bigrams.push(g);
      }
    }
  }
  const wordsKept = words.slice(0, Math.max(MAX_QUESTION_TERMS - Math.min(bigrams.length, 8), 4));
  return { words: wordsKept, bigrams: bigrams.slice(0, MAX_QUESTION_TERMS - wordsKept.length) };
}

/** The terms of a text as the question's terms are matched against it (stems and bigrams). */
function termSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of apart(text)
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (HAN_ONE.test(w)) {
      const chars = [...w];
      for (let i = 0; i + 1 < chars.length; i++) out.add(`${chars[i]}${chars[i + 1]}`);
    } else out.add(stem(w));
  }
  return out;
}

/** Weighted share (0–1) of the question's terms found in a text; rarer-looking (longer) words weigh more. */
export function coverage(terms: { words: string[]; bigrams: string[] }, text: string): number {
  const have = termSet(text);
  let total = 0;
  let found = 0;
  for (const w of terms.words) {
    const weight = Math.min(3, w.length / 4) + (/\d/.test(w) ? 1 : 0);
    total += weight;
    if (have.has(stem(w))) found += weight;
  }
  for (const g of terms.bigrams) {
    total += 1;
    if (have.has(g)) found += 1;
  }
  return total ? found / total : 0;
}

/**
 * Reciprocal rank fusion: each list ranks ids best first; an id's score is the sum over the lists
 * of 1 / (k + rank), rank from 1. Ties keep the order of first appearance (full text first).
 */
export function fuseRankings(lists: readonly (readonly string[])[], k = RRF_K): string[] {
  const score = new Map<string, number>();
  for (const list of lists) list.forEach((id, i) => score.set(id, (score.get(id) ?? 0) + 1 / (k + i + 1)));
  return [...score.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}

/** Markup and an article's own "[3]" out: it must not read as a citation of a passage. */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\[(\d[\d,\s]*)\]/g, '($1)')
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

/** Sentences of a plain text: Latin stops before a space and CJK stops. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{Lo}\p{N}"“‘(])|(?<=[。！？])/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/** Cut to at most `max` characters at a word (or CJK character) boundary, with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Paragraph-sized windows of a text: its paragraphs, long ones cut at sentence ends into pieces of
 * at most `max` characters, short neighbours joined up to it. At most `limit` windows.
 */
export function windowsOf(text: string, max = PASSAGE_MAX_CHARS, limit = 40): string[] {
  const out: string[] = [];
  let current = '';
  const flush = () => {
    if (current) out.push(current);
    current = '';
  };
  for (const paragraph of plainText(text).split(/\n\n/)) {
    for (const s of sentencesOf(paragraph)) {
      const sentence = clip(s, max);
      if (current && current.length + 1 + sentence.length > max) flush();
      current = current ? `${current} ${sentence}` : sentence;
      if (out.length >= limit) return out;
    }
    // a paragraph ends a window only when the window is already a fair size
    if (current.length >= max / 2) flush();
  }
  flush();
  return out.slice(0, limit);
}

/** What a reader is told when nothing retrieved answers the question. */
export const ABSTENTION: Record<AskLanguage, string> = {
  en: 'The articles found do not answer this question.',
  'zh-TW': '找到的文章無法回答這個問題。',
};

/** The label of an extractive answer (no language model): quotes, not a written answer. */
export const EXTRACTIVE_LEAD: Record<AskLanguage, string> = {
  en: 'Quoted from the most relevant articles (no language model is configured):',
  'zh-TW': '以下摘錄自最相關的文章（未設定語言模型）：',
};
