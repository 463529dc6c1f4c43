import { EXTRACTIVE_LEAD, clip, coverage, sentencesOf, type AskLanguage } from '../../domain/ask.js';
import { groundLocally, splitSentences } from '../../domain/grounding.js';
import type { ChatMessage } from '../shared/llm.js';
import type { Passage, QuestionTerms } from './ask-retrieval.js';

/** What the model answers when the passages do not hold the answer. */
export const NO_ANSWER = 'NO_ANSWER';

const LANGUAGE_NAMES: Record<AskLanguage, string> = {
  en: 'English',
  'zh-TW': 'Traditional Chinese (Taiwan, zh-TW)',
};

/**
 * The prompt: the passages numbered from 1 (article ids never appear), the question, and the
 * rules: only the passages, every sentence cited with [N], NO_ANSWER when they do not answer it.
 */
export function answerPrompt(question: string, language: AskLanguage, passages: Passage[]): ChatMessage[] {
  const system =
    "You answer a reader's question from the numbered passages of news and research articles given below, and from nothing else. " +
    'Every sentence of the answer must end with the number of the passage that supports it, in brackets, e.g. [2]; ' +
    'cite only numbers that are listed. Copy figures and names exactly as the passage writes them. ' +
    `If the passages do not contain the answer, reply with exactly ${NO_ANSWER} and nothing else. ` +
    `Answer in ${LANGUAGE_NAMES[language]}, in at most four sentences, plain text without headings.`;
  const listed = passages
    .map((p) => {
      const date = p.publishedAt ? `, ${p.publishedAt.toISOString().slice(0, 10)}` : '';
      return `[${p.n}] ${p.title} (${p.source}${date})\n${p.text}`;
    })
    .join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Passages:\n\n${listed}\n\nQuestion: ${question}` },
  ];
}

/** The model said it cannot answer (alone, or before anything else). */
export const saysNoAnswer = (text: string) => text.trim().toUpperCase().startsWith(NO_ANSWER);

/**
 * Passes on the model's streamed answer one sentence at a time, as each is complete, and only
 * the sentences the local check keeps (a citation corrected, an unsupported claim held back): a
 * reader never sees a sentence the final answer drops for want of support.
 */
export class SentenceStream {
  private buffer = '';
  private started = false;
  private silent = false;

  constructor(
    private readonly sources: string[],
    private readonly emit: (text: string) => void,
    private readonly now: () => Date,
  ) {}

  push(piece: string): void {
    this.buffer += piece;
    if (!this.started) {
      const head = this.buffer.trimStart();
      if (head.length < NO_ANSWER.length && NO_ANSWER.startsWith(head.toUpperCase())) return;
      this.started = true;
      this.silent = saysNoAnswer(head);
    }
    for (;;) {
      const newline = this.buffer.indexOf('\n');
      if (newline >= 0) {
        this.line(this.buffer.slice(0, newline), true);
        this.buffer = this.buffer.slice(newline + 1);
        continue;
      }
      const parts = splitSentences(this.buffer);
      // the last part may still grow; one that starts with "[" may be the marker of the one before
      if (parts.length < 2 || parts[parts.length - 1]!.startsWith('[')) return;
      const last = parts[parts.length - 1]!;
      this.line(parts.slice(0, -1).join(' '), false);
      this.buffer = this.buffer.slice(this.buffer.lastIndexOf(last));
    }
  }

  end(): void {
    if (!this.started) this.silent = saysNoAnswer(this.buffer);
    this.line(this.buffer, false);
    this.buffer = '';
  }

  private line(text: string, newline: boolean): void {
    if (this.silent) return;
    if (!text.trim()) {
      if (newline) this.emit('\n');
      return;
    }
    const kept = groundLocally(text, this.sources, this.now()).text;
    if (kept) this.emit(`${kept}${newline ? '\n' : ' '}`);
  }
}

/** an extractive answer quotes only passages holding at least this share of the question */
export const EXTRACTIVE_MIN_COVERAGE = 0.5;
const EXTRACTIVE_QUOTES = 3;
const QUOTE_MAX = 300;

/**
 * The answer without a language model: the best sentence of each of the (at most three) passages
 * that hold enough of the question, quoted with its citation, under a line saying what it is.
 * Null when no passage holds enough of the question (the answer abstains).
 */
export function extractiveAnswer(
  passages: Passage[],
  terms: QuestionTerms,
  language: AskLanguage,
): string | null {
  const chosen = passages
    .filter((p) => p.coverage >= EXTRACTIVE_MIN_COVERAGE)
    .sort((a, b) => b.coverage - a.coverage || a.n - b.n)
    .slice(0, EXTRACTIVE_QUOTES);
  if (!chosen.length) return null;
  const lines = chosen.map((p) => {
    let best = p.text;
    let bestScore = -1;
    for (const s of sentencesOf(p.text)) {
      const score = coverage(terms, s);
      if (score > bestScore) {
        best = s;
        bestScore = score;
      }
    }
    // a quote ends with its stop so that its marker reads as the sentence's own
    const quote = clip(best, QUOTE_MAX).replace(/[.!?。！？…]?$/u, (stop) => stop || '.');
    return `- ${quote.replace(/([.!?。！？…])$/u, ` [${p.n}]$1`)}`;
  });
  return `${EXTRACTIVE_LEAD[language]}\n\n${lines.join('\n')}`;
}
