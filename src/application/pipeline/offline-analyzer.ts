/**
 * The built-in analyzer used when no provider is active: an extractive summary (the sentences
 * that carry the most frequent content words), keyword tags, and a language guess from scripts
 * and stop words. Deterministic and fast, so the pipeline runs with no external service.
 */
import type { Analysis, ArticleAnalyzer, AnalysisInput } from './analysis.js';

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
const STOPWORDS = new Set(Object.values(STOP).flat());

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

const wordsOf = (text: string) =>
  (text.toLowerCase().match(/\p{L}[\p{L}\p{N}-]*/gu) ?? []).filter((w) => w.length > 2 && !STOPWORDS.has(w));

export function extractiveSummary(text: string, maxSentences = 3, maxChars = 600): string {
  const sentences = splitSentences(text);
  if (sentences.length <= maxSentences) return truncate(sentences.join(' '), maxChars);
  const freq = new Map<string, number>();
  for (const w of wordsOf(text)) freq.set(w, (freq.get(w) ?? 0) + 1);
  const scored = sentences.map((s, i) => {
    const ws = wordsOf(s);
    const score = ws.reduce((a, w) => a + (freq.get(w) ?? 0), 0) / Math.sqrt(ws.length || 1);
    // the lead sentence usually states the point
    return { i, s, score: score * (i === 0 ? 1.5 : 1) };
  });
  const picked = scored
    .sort((a, b) => b.score - a.score)
    .slice(0, maxSentences)
    .sort((a, b) => a.i - b.i);
  return truncate(picked.map((p) => p.s).join(' '), maxChars);
}

export function keywordTags(title: string, text: string, max = 5): string[] {
  const score = new Map<string, number>();
  for (const w of wordsOf(text)) score.set(w, (score.get(w) ?? 0) + 1);
  // a word in the title says more about the article than one in the body
  for (const w of wordsOf(title)) score.set(w, (score.get(w) ?? 0) + 3);
  return [...score.entries()]
    .filter(([w]) => w.length >= 4 && !/^\d/.test(w))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([w]) => w);
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

export class OfflineAnalyzer implements ArticleAnalyzer {
  readonly name = 'built-in';
  analyze(input: AnalysisInput): Promise<Analysis> {
    const text = input.text || input.title;
    return Promise.resolve({
      summary: extractiveSummary(text),
      tags: keywordTags(input.title, text),
      language: input.language ?? detectLanguage(`${input.title} ${text}`),
    });
  }
}
