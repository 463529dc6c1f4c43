import type { Provider } from '../../domain/catalog.js';
import type { AskLanguage } from '../../domain/ask.js';
import type { Grounding } from '../../domain/grounding.js';
import type { Vector } from '../shared/embedding.js';

export interface AskFilter {
  topicId?: string;
  /** only articles dated (published, else scraped) on or after this instant */
  since?: Date;
}

/** One full-text candidate: which of the query's terms found it, and the index's rank of it. */
export interface FullTextHit {
  id: string;
  /** positions (in the terms given) of the terms whose lookup returned this article */
  terms: number[];
  rank: number;
}

export interface FullTextResult {
  hits: FullTextHit[];
  /** articles each term's lookup returned (a term at `perTerm` is a common one, cut short) */
  termCounts: number[];
  perTerm: number;
}

/** The stored text of an article, as retrieval reads it (content bounded). */
export interface AskDocument {
  id: string;
  title: string;
  url: string;
  source: string;
  publishedAt: Date | null;
  summary: string | null;
  content: string | null;
  /** the stored zh-TW translation of title and summary, when there is one */
  translation: { title: string; summary: string | null } | null;
}

/** A recent article with its stored vector (null until first computed) and its date. */
export interface WindowArticle {
  id: string;
  /** what is embedded: title and summary */
  text: string;
  vector: Vector | null;
  /** published, else scraped (ms since the epoch) */
  at: number;
}

export interface AskSearch {
  /**
   * Articles whose full-text document holds any of the terms: each term looked up on its own
   * (at most `perTerm` articles each), so a rare term's articles are all candidates whatever the
   * common ones match.
   */
  fullText(
    terms: { words: string[]; bigrams: string[] },
    filter: AskFilter,
    perTerm: number,
  ): Promise<FullTextResult>;
  /** the articles of these ids that exist */
  documents(ids: readonly string[]): Promise<AskDocument[]>;
  /** the `limit` most recently scraped articles, of one topic or of all */
  recent(topicId: string | null, limit: number): Promise<WindowArticle[]>;
  saveVectors(vectors: { articleId: string; vector: Vector }[]): Promise<void>;
}

export interface AskCitation {
  n: number;
  article_id: string;
  title: string;
  url: string;
  quote: string;
}

export type AnswerMethod = 'model' | 'extractive';

export interface AskAnswer {
  answer: string;
  language: AskLanguage;
  abstained: boolean;
  method: AnswerMethod;
  citations: AskCitation[];
  grounding: Grounding;
}

export interface AskHistoryEntry {
  id: string;
  question: string;
  language: AskLanguage;
  answer: string;
  abstained: boolean;
  method: AnswerMethod;
  citations: AskCitation[];
  createdAt: Date;
}

/** The user's own questions and answers; nothing of it is readable by anyone else. */
export interface AskHistory {
  /** keeps the entry and lets the user's oldest go past `keep` */
  add(userId: string, entry: Omit<AskHistoryEntry, 'id' | 'createdAt'>, keep: number): Promise<void>;
  list(
    userId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: AskHistoryEntry[]; total: number }>;
  clear(userId: string): Promise<number>;
}

/** The provider that writes answers: the active text one, else the active multimodal one; null: none. */
export interface AnsweringProvider {
  answeringProvider(): Promise<Provider | null>;
  topicExists(id: string): Promise<boolean>;
}

/**
 * Checks an answer's cited sentences against the passages (`sources[N-1]` is what passage N may
 * be checked against): the grounded text and what was found.
 */
export type AnswerGrounder = (
  text: string,
  sources: string[],
  now: Date,
) => Promise<{ text: string; grounding: Grounding }>;
