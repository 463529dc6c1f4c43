import { plainText } from '../../domain/ask.js';
import type { ReportArticle, ReportTranslation } from './reports.ports.js';

/** articles a digest quotes: the head of the topic's ranking */
export const DIGEST_SIZE = 8;
const SENTENCE_MIN = 40;
const SENTENCE_MAX = 320;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been by can for from has have in into is it its of on or our over that ' +
    'the their these this those to using via was we were what when which while with within without ' +
    'new paper study article show shows present presents propose proposes approach method results'
  ).split(' '),
);

const words = (text: string) =>
  (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? []).filter(
    (w) => w.length > 2 && !STOP_WORDS.has(w),
  );

/** Tags, entities and Markdown out: what is left reads as plain prose inside a bullet. */
function plain(text: string): string {
  // markup, entities and an article's own "[3]" (it must not read as a citation of this report's
  // third source) as for the Ask passages; then Markdown and line breaks
  return plainText(text)
    .replace(/[*_`#>]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sentences of a text: Latin stops followed by a space and CJK stops. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const part of plain(text).split(/(?<=[.!?])\s+(?=[\p{Lu}\p{Lo}\p{N}"“(])|(?<=[。！？])/u)) {
    const s = part.trim();
    if (s) out.push(s);
  }
  return out;
}

const clip = (s: string) => (s.length > SENTENCE_MAX ? `${s.slice(0, SENTENCE_MAX - 1).trimEnd()}…` : s);

/**
 * The sentence of an article that says most about it: the one sharing most words with its title and
 * the topic, with a bonus for figures (results) and a slight preference for earlier sentences.
 * Sentences too short to stand alone are taken only when there is nothing else.
 */
export function bestSentence(article: Pick<ReportArticle, 'title' | 'summary' | 'content'>, topic: string) {
  const text = article.summary?.trim() ? article.summary : article.content;
  const candidates = text ? sentences(text) : [];
  if (!candidates.length) return null;
  const key = new Set([...words(article.title), ...words(topic)]);
  let best: { sentence: string; score: number } | null = null;
  for (const [i, s] of candidates.entries()) {
    const ws = words(s);
    const overlap = new Set(ws.filter((w) => key.has(w))).size;
    const figures = /\d/.test(s) ? 1 : 0;
    const fits = s.length >= SENTENCE_MIN && s.length <= SENTENCE_MAX ? 2 : 0;
    const score = overlap * 2 + figures + fits + Math.min(ws.length, 20) / 20 - i * 0.15;
    if (!best || score > best.score) best = { sentence: s, score };
  }
  return clip(best!.sentence);
}

/** Titles go inside **…**: no asterisks or brackets of their own. */
const titleText = (t: string) => plain(t).replace(/[[\]]/g, '');

export interface Digest {
  original: ReportTranslation;
  translations: Record<string, ReportTranslation>;
  /** the articles the digest cites, in citation order ([1] is the first) */
  cited: ReportArticle[];
}

/**
 * The weekly report without a language model: the head of the topic's ranking, each article with
 * its best sentence quoted and its [N]. Grounded by construction: every sentence is the cited
 * article's own. The zh-TW version frames the same quotes (nothing is translated without a model).
 */
export function extractiveDigest(input: { topicName: string; articles: ReportArticle[] }): Digest {
  const cited = input.articles.slice(0, DIGEST_SIZE);
  const lines = cited.map((a, i) => {
    const sentence = bestSentence(a, input.topicName);
    return `- **${titleText(a.title)}**${sentence ? `: ${sentence}` : ''} [${i + 1}]`;
  });
  const list = lines.join('\n');
  const n = cited.length;
  const topic = titleText(input.topicName);
  return {
    cited,
    original: {
      // the page and the archive show the week already: the title says what the report is
      title: `${topic}: the week's ${n === 1 ? 'top article' : `${n} top articles`}`,
      summary_text:
        `The week's ${n === 1 ? 'top article' : `${n} top articles`} on **${topic}**, ranked by ` +
        `citations, then views, each with a sentence quoted from it.\n\n${list}`,
    },
    translations: {
      'zh-TW': {
        title: `${topic}：本週 ${n} 篇重點文章`,
        summary_text: `本週 **${topic}** 最重要的 ${n} 篇文章（依引用數、再依瀏覽數排序），每篇附上摘自原文的一句話。\n\n${list}`,
      },
    },
  };
}
