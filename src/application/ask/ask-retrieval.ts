import {
  MAX_PASSAGES,
  PASSAGE_MAX_CHARS,
  clip,
  coverage,
  fuseRankings,
  plainText,
  windowsOf,
  type AskLanguage,
} from '../../domain/ask.js';
import type { EmbeddingCandidates } from './ask-embedding.js';
import type { AskDocument, AskFilter, AskSearch, FullTextResult } from './ask.ports.js';

/** One numbered passage of the prompt: the best window of one article. */
export interface Passage {
  /** its number in the prompt, from 1 */
  n: number;
  articleId: string;
  title: string;
  url: string;
  source: string;
  publishedAt: Date | null;
  /** the window shown (at most PASSAGE_MAX_CHARS) */
  text: string;
  /** what a sentence citing it is checked against: the window and the article's stored title, summary and translation */
  evidence: string;
  /** weighted share of the question's terms that the evidence holds */
  coverage: number;
}

export interface Retrieval {
  passages: Passage[];
  /** the two rankings before fusion (ids), for the record */
  fullText: string[];
  embedding: string[];
}

export interface RetrievalOptions {
  /** articles each full-text term may bring (the database's bound: lower on PGlite) */
  perTerm: number;
  /** candidates kept of each ranking before fusion */
  perRanking?: number;
}

export type QuestionTerms = { words: string[]; bigrams: string[] };

/**
 * Scores the full-text candidates: each term found counts by how rare it looks (a term whose
 * lookup was cut short at `perTerm` is a common one), plus the index's own rank.
 */
export function rankFullText(result: FullTextResult): string[] {
  const weight = result.termCounts.map((c) => 1 / Math.log2(2 + c));
  return result.hits
    .map((h) => ({ id: h.id, score: h.terms.reduce((s, t) => s + (weight[t] ?? 0), 0) + h.rank }))
    .sort((a, b) => b.score - a.score)
    .map((h) => h.id);
}

/**
 * Hybrid retrieval: the full-text index and the embeddings each rank candidates, reciprocal
 * rank fusion (k = 60) merges the two lists, and each of the first MAX_PASSAGES articles gives
 * its best paragraph-sized window as a passage.
 */
export class AskRetriever {
  constructor(
    private readonly search: AskSearch,
    private readonly embedding: EmbeddingCandidates,
    private readonly opts: RetrievalOptions,
  ) {}

  async retrieve(
    question: string,
    terms: QuestionTerms,
    language: AskLanguage,
    filter: AskFilter,
  ): Promise<Retrieval> {
    const per = this.opts.perRanking ?? 20;
    const [fullText, embedding] = await Promise.all([
      terms.words.length || terms.bigrams.length
        ? this.search.fullText(terms, filter, this.opts.perTerm).then((r) => rankFullText(r).slice(0, per))
        : Promise.resolve([]),
      this.embedding.rank(question, filter, per),
    ]);
    const fused = fuseRankings([fullText, embedding]).slice(0, MAX_PASSAGES);
    const docs = new Map((await this.search.documents(fused)).map((d) => [d.id, d]));
    const passages = fused.flatMap((id, i) => {
      const doc = docs.get(id);
      return doc ? [passageOf(doc, terms, language, i + 1)] : [];
    });
    // numbered in fused order, without gaps
    passages.forEach((p, i) => (p.n = i + 1));
    return { passages, fullText, embedding };
  }
}

/** a passage is made of windows of at most this size, so that two parts of an article can meet in one */
const WINDOW_CHARS = PASSAGE_MAX_CHARS / 2;

/**
 * The article's passage: its windows (zh-TW title and summary, summary, content paragraphs) that
 * hold most of the question, best first while they fit in PASSAGE_MAX_CHARS, shown in the
 * article's order. A zh-TW question prefers the stored translation, an English one the original.
 */
export function passageOf(doc: AskDocument, terms: QuestionTerms, language: AskLanguage, n: number): Passage {
  const translated = doc.translation
    ? plainText([doc.translation.title, doc.translation.summary ?? ''].filter(Boolean).join('。'))
    : null;
  const windows: { text: string; zh: boolean }[] = [];
  if (translated) windows.push({ text: clip(translated, WINDOW_CHARS), zh: true });
  if (doc.summary) windows.push(...windowsOf(doc.summary, WINDOW_CHARS).map((text) => ({ text, zh: false })));
  if (doc.content) windows.push(...windowsOf(doc.content, WINDOW_CHARS).map((text) => ({ text, zh: false })));
  if (!windows.length) windows.push({ text: clip(plainText(doc.title), WINDOW_CHARS), zh: false });
  const ranked = windows
    .map((w, i) => ({
      ...w,
      i,
      score: coverage(terms, w.text) + (w.zh === (language === 'zh-TW') ? 0.05 : 0),
    }))
    .sort((a, b) => b.score - a.score || a.i - b.i);
  const chosen: typeof ranked = [];
  let length = 0;
  for (const w of ranked) {
    if (chosen.length && length + 1 + w.text.length > PASSAGE_MAX_CHARS) continue;
    if (chosen.some((c) => c.text === w.text)) continue;
    chosen.push(w);
    length += w.text.length + 1;
  }
  const text = chosen
    .sort((a, b) => a.i - b.i)
    .map((w) => w.text)
    .join('\n');
  const evidence = [plainText(doc.title), translated ?? '', text, plainText(doc.summary ?? '')]
    .filter(Boolean)
    .join('\n');
  return {
    n,
    articleId: doc.id,
    title: doc.title,
    url: doc.url,
    source: doc.source,
    publishedAt: doc.publishedAt,
    text,
    evidence,
    coverage: coverage(terms, evidence),
  };
}
