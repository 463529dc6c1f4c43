import { groundLocally, renumberGrounding, type Grounding } from '../../domain/grounding.js';
import { normalizeCitations } from '../../domain/reports.js';
import type { LanguageModel } from '../shared/llm.js';
import type { Logger } from '../shared/ports.js';
import { groundWithModel, type GroundingLimits } from './model-grounding.js';
import type { ReportArticle } from './reports.ports.js';

/** What a cited sentence is checked against: the article's stored title, summary and content. */
export const sourceText = (a: ReportArticle): string =>
  [a.title, a.summary ?? '', a.content ?? ''].filter(Boolean).join('. ');

/**
 * A model's draft made what is stored: grounded against the articles as the model saw them
 * (numbered from 1) — locally, then by the model when one is given — then its markers renumbered
 * by first citation (`order[k]` is the article cited as [k+1]), the grounding following the new
 * numbers.
 */
export async function groundDraft(
  draft: string,
  articles: ReportArticle[],
  now: Date,
  judge?: { model: LanguageModel; logger: Logger; limits?: Partial<GroundingLimits> },
): Promise<{ text: string; order: number[]; grounding: Grounding }> {
  const sources = articles.map(sourceText);
  const grounded = judge
    ? await groundWithModel({ text: draft, sources, now, ...judge })
    : groundLocally(draft, sources, now);
  const { text, order } = normalizeCitations(grounded.text, articles.length);
  return { text, order, grounding: renumberGrounding(grounded.grounding, order) };
}
