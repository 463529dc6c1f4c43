import { groundLocally, renumberGrounding, type Grounding } from '../../domain/grounding.js';
import { citationSet, normalizeCitations } from '../../domain/reports.js';
import type { AnswerGrounder } from './ask.ports.js';

/**
 * An answer is grounded like a weekly report: each sentence that carries [N] is checked against
 * passage N; a number that points to no passage, a figure or name the passage lacks, drops the
 * sentence or moves its citation to the passage that holds it. This is the local pass; a model's
 * judgement plugs in here as another AnswerGrounder.
 */
export const groundAnswerLocally: AnswerGrounder = (text, sources, now) =>
  Promise.resolve(groundLocally(text, sources, now));

/**
 * The grounded text with its markers renumbered by first citation ([1] is the first passage
 * cited): `order[k]` is the 0-based passage now cited as [k+1]; `cited` how many are cited.
 */
export function renumberAnswer(
  text: string,
  grounding: Grounding,
  passages: number,
): { text: string; grounding: Grounding; order: number[]; cited: number } {
  const normal = normalizeCitations(text, passages);
  return {
    text: normal.text,
    grounding: renumberGrounding(grounding, normal.order),
    order: normal.order,
    cited: citationSet(normal.text).length,
  };
}

/** Whether a grounded answer still holds a sentence its passages support. */
export const hasSupportedClaim = (g: Grounding) => g.sentences.some((s) => s.support !== 'unsupported');
