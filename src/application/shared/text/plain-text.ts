/**
 * Plain-text analysis without a model: an extractive summary (the sentences that carry the most
 * frequent content words, never the title again), keyword tags (stop words removed, Chinese
 * segmented by Intl.Segmenter), and a language guess from scripts and stop words. Deterministic
 * and fast: the pipeline's built-in analyzer and the ask path use it.
 */
import { inlineHtmlToText } from './html-to-text.js';

const STOP: Record<string, string[]> = {
  en: 'the and of to in a is that for on with as are be this by an we our from at or it which these their can its has have was were not also than more such been into using based paper results show approach method methods new'.split(
    ' ',
  ),
  de: 'der die das und ist nicht mit von den dem ein eine auf für sich des zu im auch als wir werden'.split(
    ' ',
  ),
  fr: 'le la les et des est une un du dans pour que sur par pas plus avec sont nous aux ce qui'.split(' '),
  es: 'el la los las y de que en un una es por para con del se su al lo como más pero sus'.split(' '),
};

/** ISO 639-1 code (zh, ja, ko, ru, ar, en, de, fr, es), 'en' when nothing stands out. */
export function detectLanguage(text: string): string {
  const sample = text.slice(0, 4000);
  const count = (re: RegExp) => (sample.match(re) ?? []).length;
  const letters = count(/\p{L}/gu) || 1;
  if (count(/[\u3040-\u30ff]/g) / letters > 0.05) return 'ja';
  if (count(/[\uac00-\ud7af]/g) / letters > 0.2) return 'ko';
  if (count(/\p{Script=Han}/gu) / letters > 0.2) return 'zh';
  if (count(/\p{Script=Cyrillic}/gu) / letters > 0.3) return 'ru';
  if (count(/\p{Script=Arabic}/gu) / letters > 0.3) return 'ar';
  const words = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best = 'en';
  let bestScore = 0;
  for (const [lang, list] of Object.entries(STOP)) {
    const set = new Set(list);
    const score = words.filter((w) => set.has(w)).length;
    if (score > bestScore) [best, bestScore] = [lang, score];
  }
  return best;
}

export function splitSentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?。！？])\s+|(?<=[。！？])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * English stop words (function words and the filler of abstracts): never a tag, never what makes a
 * sentence important.
 */
const EN_STOP = new Set(
  `a about above after again against all almost also although always am among an and another any
  are around as at be became because been before being below between both but by can cannot could
  did do does doing done down during each either else enough etc even ever every few for from
  further get gets got had has have having he her here hers herself him himself his how however i
  if in into is it its itself just least less let like made make makes many may me might more most
  much must my myself near need needs neither never new no nor not now of off often on once one only
  onto or other others otherwise our ours ourselves out over own per perhaps rather same several
  shall she should show shows shown since so some still such than that the their theirs them
  themselves then there these they this those though through thus to too toward towards under until
  up upon us use used uses using very via was we well were what whatever when where whereas whether
  which while who whom whose why will with within without would yet you your yours yourself
  yourselves paper papers study studies result results approach approaches method methods based
  propose proposed present presents presented show shown work works new novel also including
  include includes two three first second however can may within across`
    .split(/\s+/)
    .filter(Boolean),
);
/** Chinese function words and filler that the word segmenter keeps as words */
const ZH_STOP = new Set(
  '我們 他們 一種 一個 這個 這些 那些 以及 進行 透過 通過 使用 基於 可以 研究 提出 方法 結果 本文 其中 如何 什麼 因為 所以 但是 而且 並且 或者 已經 目前 相關 不同 可能 需要 由於 對於 關於 以下 以上 之後 之前'.split(
    ' ',
  ),
);
const STOPWORDS = new Set([...Object.values(STOP).flat(), ...EN_STOP]);

const HAN = /\p{Script=Han}/u;
/** made on the first Chinese text: a segmenter loads ICU's word-break data, which an idle process need not hold */
let zhSegmenter: Intl.Segmenter | undefined;
const zhWords = () => (zhSegmenter ??= new Intl.Segmenter('zh', { granularity: 'word' }));

/**
 * Content words of a text, lower case: Latin-script words of 3+ letters that are no stop word, and
 * Chinese words of 2+ characters found by Intl.Segmenter (a CJK run has no spaces to split on).
 */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const run of text.toLowerCase().match(/\p{Script=Han}+|\p{L}[\p{L}\p{N}-]*/gu) ?? []) {
    if (HAN.test(run)) {
      for (const s of zhWords().segment(run))
        if (s.isWordLike && [...s.segment].length >= 2 && !ZH_STOP.has(s.segment)) out.push(s.segment);
    } else if (run.length > 2 && !STOPWORDS.has(run) && !/^\d/.test(run)) out.push(run);
  }
  return out;
}

/** Plain text: entities decoded, stray tags and control characters gone, spaces collapsed. */
export function plainText(s: string): string {
  return (
    inlineHtmlToText(s)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** true when the sentence says no more than the title: equal, contained in it, or mostly its words */
function repeatsTitle(sentence: string, title: string): boolean {
  const s = norm(sentence);
  const t = norm(title);
  if (!s || !t) return false;
  if (t.includes(s)) return true;
  const sw = new Set(contentWords(sentence));
  const tw = new Set(contentWords(title));
  if (!sw.size) return false;
  let shared = 0;
  for (const w of sw) if (tw.has(w)) shared++;
  return shared / sw.size >= 0.8;
}

/** a sentence that starts with the title (a feed that runs the title into the text) loses it */
function withoutTitlePrefix(sentence: string, title: string): string {
  const t = title.trim();
  if (t && sentence.toLowerCase().startsWith(t.toLowerCase()))
    return sentence.slice(t.length).replace(/^[\s:.\-–—|]+/u, '');
  return sentence;
}

export interface SummaryOptions {
  /** the summary never repeats it */
  title?: string;
  maxSentences?: number;
  maxChars?: number;
}

/**
 * Extractive summary. Each sentence is scored by the document frequency of its content words
 * (sum / sqrt(count), so long sentences do not win by length), x1.25 for the lead sentence,
 * x0.5 for fragments under 5 words and x0.7 for sentences over 60 words. The best `maxSentences`
 * are kept in text order. Sentences that repeat the title are never chosen.
 */
export function extractiveSummary(text: string, opts: SummaryOptions | number = {}): string {
  const {
    title = '',
    maxSentences = 3,
    maxChars = 600,
  } = typeof opts === 'number' ? { maxSentences: opts } : opts;
  const sentences = splitSentences(plainText(text))
    .map((s, i) => (i === 0 ? withoutTitlePrefix(s, title) : s))
    .filter((s) => s.length > 0 && !repeatsTitle(s, title));
  if (sentences.length <= maxSentences) return truncate(sentences.join(' '), maxChars);
  const freq = new Map<string, number>();
  for (const w of contentWords(text)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const scored = sentences.map((s, i) => {
    const ws = contentWords(s);
    const words = s.split(/\s+/).length;
    let score = ws.reduce((a, w) => a + (freq.get(w) ?? 0), 0) / Math.sqrt(ws.length || 1);
    if (i === 0) score *= 1.25;
    if (words < 5 && !HAN.test(s)) score *= 0.5;
    if (words > 60) score *= 0.7;
    return { i, s, score };
  });
  const picked = scored
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, maxSentences)
    .sort((a, b) => a.i - b.i);
  return truncate(picked.map((p) => p.s).join(' '), maxChars);
}

/**
 * Keyword tags: content words (stop words removed, Chinese segmented) scored by frequency in the
 * text plus 3 for each occurrence in the title; words of 4+ letters (2+ characters in Chinese).
 */
export function keywordTags(title: string, text: string, max = 5): string[] {
  const score = new Map<string, number>();
  for (const w of contentWords(plainText(text))) score.set(w, (score.get(w) ?? 0) + 1);
  // a word in the title says more about the article than one in the body
  for (const w of contentWords(plainText(title))) score.set(w, (score.get(w) ?? 0) + 3);
  return [...score.entries()]
    .filter(([w]) => HAN.test(w) || w.length >= 4)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([w]) => w);
}

function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
