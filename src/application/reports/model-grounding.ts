import {
  assembleGrounded,
  citationsOf,
  citedSentences,
  findQuote,
  groundLocally,
  keepLocal,
  localChecker,
  recite,
  relevantPassages,
  splitSentences,
  stripMarkers,
  type CitedSentence,
  type Decision,
  type Evidence,
  type Grounding,
  type RemovalReason,
  type Support,
} from '../../domain/grounding.js';
import {
  parseModelJson,
  type ChatMessage,
  type CompletionRequest,
  type LanguageModel,
} from '../shared/llm.js';
import type { Logger } from '../shared/ports.js';

/** Bounds of the model's part of grounding: calls, prompt sizes, time. */
export interface GroundingLimits {
  /** more cited sentences than this: the local pass alone decides */
  maxSentences: number;
  /** sentences per judge or revision call */
  claimsPerCall: number;
  /** sources shown in one judge call */
  sourcesPerCall: number;
  /** characters of one source shown to the judge (its passages about the claims) */
  excerptChars: number;
  /** characters of one cited source given as evidence to a revision */
  evidenceChars: number;
  /** a revised sentence longer than this is refused */
  revisionChars: number;
  /** the whole model part: every call together */
  timeoutMs: number;
}

export const GROUNDING_LIMITS: GroundingLimits = {
  maxSentences: 48,
  claimsPerCall: 8,
  sourcesPerCall: 12,
  excerptChars: 1500,
  evidenceChars: 1200,
  revisionChars: 600,
  timeoutMs: 120_000,
};

const SUPPORTS: Support[] = ['supported', 'partial', 'unsupported'];

export const JUDGE_SCHEMA = {
  name: 'citation_judgements',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['judgements'],
    properties: {
      judgements: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'support', 'quote', 'better_source'],
          properties: {
            id: { type: 'integer' },
            support: { type: 'string', enum: SUPPORTS },
            quote: { type: 'string' },
            better_source: { type: ['integer', 'null'] },
          },
        },
      },
    },
  },
};

export const REVISION_SCHEMA = {
  name: 'citation_revisions',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['revisions'],
    properties: {
      revisions: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'text'],
          properties: { id: { type: 'integer' }, text: { type: 'string' } },
        },
      },
    },
  },
};

const JUDGE_SYSTEM =
  'You check the sentences of a report against the sources they cite. The user message is a JSON ' +
  'object: "sources" (each with its number n and its text) and "claims" (each with an id, its text ' +
  'and the numbers it cites). For every claim judge, from the given source texts only and never from ' +
  'what you know: "supported" when the cited source states everything the claim says (figures ' +
  'exactly), "partial" when it states part of it and contradicts none of it, "unsupported" ' +
  'otherwise. "quote" is the shortest passage copied exactly from that source which supports the ' +
  'claim ("" when unsupported). When the cited source does not support a claim but another listed ' +
  'source does, set "better_source" to that source\'s number and give support and quote for it; ' +
  'else null. Answer one JSON object {"judgements": [{"id", "support", "quote", "better_source"}]} ' +
  'with one judgement per claim and nothing else.';

const REVISION_SYSTEM =
  'Each claim in the user message failed the check against the source it cites. Rewrite each claim ' +
  'as one sentence that says only what its evidence states, keeping every figure exactly as the ' +
  'evidence gives it and the language of the claim, without citation markers. When the evidence ' +
  'says nothing the claim is about, answer an empty text for it. Answer one JSON object ' +
  '{"revisions": [{"id", "text"}]} with one revision per claim and nothing else.';

class InvalidAnswer extends Error {}

/** A judged claim: kept with its evidence, or why it failed. */
type Judged =
  | { ok: true; support: Exclude<Support, 'unsupported'>; citations: number[]; evidence: Evidence }
  | { ok: false; reason: RemovalReason };

interface Claim {
  id: number;
  /** without markers */
  text: string;
  cited: number[];
}

/**
 * Grounding with the language model, after the local pass: each cited sentence the local pass
 * keeps is judged by the model (structured output: support, the shortest supporting quote, maybe a
 * better source), its quote must occur in the source. A sentence another source supports is
 * re-cited; one that fails (locally or by the model) is revised once with the cited source's
 * passages and checked again (local, then the model), else removed. When the judge cannot be had
 * (error, timeout, answers that are not judgements) the local result stands, `method: "local"`.
 * `sources[N-1]` is the text of source N.
 */
export async function groundWithModel(input: {
  text: string;
  sources: string[];
  model: LanguageModel;
  now: Date;
  logger: Logger;
  limits?: Partial<GroundingLimits>;
}): Promise<{ text: string; grounding: Grounding }> {
  const { text, sources, model, now, logger } = input;
  const limits = { ...GROUNDING_LIMITS, ...input.limits };
  const cited = citedSentences(text, sources);
  const local = () => groundLocally(text, sources, now);
  if (!cited.length) return local();
  if (cited.length > limits.maxSentences) {
    logger.warn({ event: 'report.grounding.too_many_sentences', sentences: cited.length });
    return local();
  }
  const deadline = Date.now() + limits.timeoutMs;
  const checker = localChecker(sources);
  const call = (purpose: string, messages: ChatMessage[], schema: NonNullable<CompletionRequest['schema']>) =>
    complete(model, logger, purpose, messages, schema, deadline);

  const decisions = new Map<number, Decision>();
  const toJudge: CitedSentence[] = [];
  const toRevise: { c: CitedSentence; reason: RemovalReason }[] = [];
  for (const c of cited) {
    if (c.local.reason === 'citation_out_of_range' && c.local.support === 'unsupported')
      decisions.set(c.index, keepLocal(c)); // no source to revise it with
    else if (c.local.support === 'unsupported') toRevise.push({ c, reason: c.local.reason });
    else toJudge.push(c);
  }

  // the report says "model" only when the model had a say in it
  let answered = toJudge.length > 0;
  let judged: Map<number, Judged>;
  try {
    judged = await judgeClaims(
      toJudge.map((c) => ({ id: c.index, text: c.claim, cited: c.local.citations })),
      { sources, limits, call, closest: checker.closest },
    );
  } catch (err) {
    logger.warn({ event: 'report.grounding.judge_failed', error: (err as Error).message });
    return local();
  }
  for (const c of toJudge) {
    const j = judged.get(c.index)!;
    if (!j.ok) {
      toRevise.push({ c, reason: j.reason });
      continue;
    }
    const recited = !sameNumbers(j.citations, c.local.citations);
    const citations = recited ? j.citations : c.local.citations;
    decisions.set(c.index, {
      keep: {
        index: c.index,
        text: recited ? recite(c.local.text, citations) : c.local.text,
        citations,
        support: j.support,
        evidence: evidenceFor(citations, j.evidence, c.local.evidence),
      },
    });
  }

  // one revision with the evidence, then the same two checks again
  const revised = new Map<number, string>();
  if (toRevise.length) {
    let answers = new Map<number, string>();
    try {
      answers = await reviseClaims(
        toRevise.map(({ c }) => ({ id: c.index, text: c.claim, cited: citedInRange(c, sources.length) })),
        { sources, limits, call },
      );
      answered = true;
    } catch (err) {
      logger.warn({ event: 'report.grounding.revision_failed', error: (err as Error).message });
    }
    const recheck: { c: CitedSentence; reason: RemovalReason; sentence: string }[] = [];
    for (const { c, reason } of toRevise) {
      const answer = answers.get(c.index);
      const sentence = answer
        ? asSentence(answer, citedInRange(c, sources.length), limits.revisionChars)
        : null;
      if (!sentence) {
        decisions.set(c.index, { remove: { text: c.sentence, reason } });
        continue;
      }
      revised.set(c.index, sentence);
      if (checker.check(sentence).support === 'unsupported')
        decisions.set(c.index, { remove: { text: c.sentence, reason, revised: sentence } });
      else recheck.push({ c, reason, sentence });
    }
    let again = new Map<number, Judged>();
    if (recheck.length) {
      try {
        again = await judgeClaims(
          recheck.map(({ c, sentence }) => ({
            id: c.index,
            text: stripMarkers(sentence),
            cited: checker.check(sentence).citations,
          })),
          { sources, limits, call, closest: checker.closest },
        );
      } catch (err) {
        // unjudged, a revision is not kept
        logger.warn({ event: 'report.grounding.recheck_failed', error: (err as Error).message });
      }
    }
    for (const { c, reason, sentence } of recheck) {
      const j = again.get(c.index);
      if (!j?.ok) {
        decisions.set(c.index, { remove: { text: c.sentence, reason, revised: sentence } });
        continue;
      }
      const localAgain = checker.check(sentence);
      const citations = j.citations;
      decisions.set(c.index, {
        keep: {
          index: c.index,
          text: sameNumbers(citations, citationsOf(sentence)) ? sentence : recite(sentence, citations),
          citations,
          support: j.support,
          evidence: evidenceFor(citations, j.evidence, localAgain.evidence),
          revised_from: c.sentence,
        },
      });
    }
  }
  const result = assembleGrounded(text, decisions, answered ? 'model' : 'local', now);
  logger.info({
    event: 'report.grounding.judged',
    sentences: cited.length,
    kept: result.grounding.sentences.length,
    revised: result.grounding.sentences.filter((s) => s.revised_from).length,
    removed: result.grounding.removed.length,
    score: result.grounding.score,
  });
  return result;
}

const sameNumbers = (a: number[], b: number[]) =>
  a.length === b.length && [...a].sort().every((n, i) => n === [...b].sort()[i]);

/** the numbers a failing sentence is revised against: as checked locally, else as written (in range) */
const citedInRange = (c: CitedSentence, count: number) =>
  (c.local.citations.length ? c.local.citations : c.cited).filter((n) => n >= 1 && n <= count).slice(0, 3);

/** The model's quote for its source, the local pass's passage for the other cited ones. */
function evidenceFor(citations: number[], quote: Evidence, local: Evidence[]): Evidence[] {
  return citations.flatMap((n) =>
    n === quote.n ? [quote] : local.filter((e) => e.n === n && e.quote).slice(0, 1),
  );
}

/**
 * A revision as one sentence of the report citing `ns`: one line, no markup that would change
 * the Markdown's structure, no markers of its own; null when it is empty, too long or more than
 * one sentence.
 */
function asSentence(answer: string, ns: number[], max: number): string | null {
  const flat = stripMarkers(answer.replace(/\s+/g, ' '))
    .replace(/^(?:[-*>]|#{1,6}|\d+\.)\s+/, '')
    .trim();
  if (!flat || flat.length > max || !/\p{L}/u.test(flat) || !ns.length) return null;
  const closed = /[.!?。！？]$/u.test(flat) ? flat : `${flat}${/\p{Script=Han}$/u.test(flat) ? '。' : '.'}`;
  if (splitSentences(closed).length !== 1) return null;
  return recite(closed, ns);
}

type Call = (
  purpose: string,
  messages: ChatMessage[],
  schema: NonNullable<CompletionRequest['schema']>,
) => Promise<unknown>;

/** Claims in groups bounded in count and in sources shown. */
function groups<T extends { sources: number[] }>(items: T[], perCall: number, sourcesPerCall: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let shown = new Set<number>();
  for (const item of items) {
    const union = new Set([...shown, ...item.sources]);
    if (current.length && (current.length >= perCall || union.size > sourcesPerCall)) {
      out.push(current);
      current = [];
      shown = new Set(item.sources);
    } else shown = union;
    current.push(item);
  }
  if (current.length) out.push(current);
  return out;
}

async function judgeClaims(
  claims: Claim[],
  ctx: {
    sources: string[];
    limits: GroundingLimits;
    call: Call;
    closest: (claim: string, except: number[], k: number) => number[];
  },
): Promise<Map<number, Judged>> {
  const { sources, limits } = ctx;
  const out = new Map<number, Judged>();
  // each claim is shown its cited sources and the one other that holds most of it
  const items = claims.map((c) => {
    const cited = c.cited.slice(0, limits.sourcesPerCall);
    return { claim: c, sources: [...cited, ...ctx.closest(c.text, cited, 1)] };
  });
  for (const group of groups(items, limits.claimsPerCall, limits.sourcesPerCall)) {
    const shown = [...new Set(group.flatMap((g) => g.sources))].sort((a, b) => a - b);
    const about = (n: number) => group.filter((g) => g.sources.includes(n)).map((g) => g.claim.text);
    const payload = {
      sources: shown.map((n) => ({
        n,
        text: relevantPassages(sources[n - 1]!, about(n), limits.excerptChars),
      })),
      claims: group.map(({ claim }) => ({ id: claim.id, text: claim.text, cited: claim.cited })),
    };
    const messages: ChatMessage[] = [
      { role: 'system', content: JUDGE_SYSTEM },
      { role: 'user', content: JSON.stringify(payload) },
    ];
    const answer = await retryInvalid(async () =>
      parseJudgements(
        await ctx.call('report.grounding.judge', messages, JUDGE_SCHEMA),
        group.map((g) => g.claim.id),
      ),
    );
    for (const { claim } of group) {
      const j = answer.get(claim.id)!;
      if (j.support === 'unsupported') {
        out.set(claim.id, { ok: false, reason: 'unsupported_by_model' });
        continue;
      }
      const better =
        j.better_source !== null && shown.includes(j.better_source) && !claim.cited.includes(j.better_source)
          ? j.better_source
          : null;
      // the quote must be in the source the verdict is about; a better source only with its quote
      const where = better ? [better, ...claim.cited] : claim.cited;
      let found: Evidence | null = null;
      for (const n of where) {
        const quote = findQuote(j.quote, sources[n - 1]!);
        if (quote) {
          found = { n, quote };
          break;
        }
      }
      if (!found) out.set(claim.id, { ok: false, reason: 'quote_not_in_source' });
      else
        out.set(claim.id, {
          ok: true,
          support: j.support,
          citations: found.n === better ? [better] : claim.cited,
          evidence: found,
        });
    }
  }
  return out;
}

interface Judgement {
  support: Support;
  quote: string;
  better_source: number | null;
}

/** The judge's answer, read as hostile: a judgement of the right shape for every claim asked. */
function parseJudgements(raw: unknown, ids: number[]): Map<number, Judgement> {
  const list = (raw as { judgements?: unknown } | null)?.judgements;
  if (!Array.isArray(list) || list.length > ids.length * 2)
    throw new InvalidAnswer('the answer has no judgements list of the expected size');
  const out = new Map<number, Judgement>();
  for (const item of list as unknown[]) {
    if (!item || typeof item !== 'object') continue;
    const { id, support, quote, better_source: better } = item as Record<string, unknown>;
    if (typeof id !== 'number' || !ids.includes(id) || out.has(id)) continue;
    if (typeof support !== 'string' || !SUPPORTS.includes(support as Support)) continue;
    out.set(id, {
      support: support as Support,
      quote: typeof quote === 'string' && quote.length <= 2000 ? quote : '',
      better_source: typeof better === 'number' && Number.isInteger(better) ? better : null,
    });
  }
  const missing = ids.filter((id) => !out.has(id));
  if (missing.length) throw new InvalidAnswer(`no valid judgement for claims ${missing.join(', ')}`);
  return out;
}

async function reviseClaims(
  claims: Claim[],
  ctx: { sources: string[]; limits: GroundingLimits; call: Call },
): Promise<Map<number, string>> {
  const { sources, limits } = ctx;
  const out = new Map<number, string>();
  for (let i = 0; i < claims.length; i += limits.claimsPerCall) {
    const group = claims.slice(i, i + limits.claimsPerCall);
    const payload = {
      claims: group.map((c) => ({
        id: c.id,
        text: c.text,
        evidence: c.cited.map((n) => ({
          n,
          text: relevantPassages(sources[n - 1]!, [c.text], limits.evidenceChars),
        })),
      })),
    };
    const raw = await ctx.call(
      'report.grounding.revise',
      [
        { role: 'system', content: REVISION_SYSTEM },
        { role: 'user', content: JSON.stringify(payload) },
      ],
      REVISION_SCHEMA,
    );
    const list = (raw as { revisions?: unknown } | null)?.revisions;
    if (!Array.isArray(list)) throw new InvalidAnswer('the answer has no revisions list');
    const ids = group.map((c) => c.id);
    for (const item of list.slice(0, ids.length * 2) as unknown[]) {
      const { id, text } = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
      if (typeof id === 'number' && ids.includes(id) && !out.has(id) && typeof text === 'string')
        out.set(id, text.slice(0, limits.revisionChars * 2));
    }
  }
  return out;
}

/** An answer that is not what was asked is asked for once more. */
async function retryInvalid<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof InvalidAnswer)) throw err;
    return fn();
  }
}

/** One structured-output call, bounded by the grounding's deadline; its JSON object, parsed. */
async function complete(
  model: LanguageModel,
  logger: Logger,
  purpose: string,
  messages: ChatMessage[],
  schema: NonNullable<CompletionRequest['schema']>,
  deadline: number,
): Promise<unknown> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new Error('the time for grounding is up');
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const res = await Promise.race([
    model.complete({ messages, schema, temperature: 0, purpose, signal: AbortSignal.timeout(remaining) }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the time for grounding is up')), remaining);
    }),
  ]).finally(() => clearTimeout(timer));
  logger.info({
    event: 'llm.call.completed',
    purpose,
    provider: model.providerName,
    duration_ms: Date.now() - started,
    prompt_tokens: res.usage.promptTokens,
    completion_tokens: res.usage.completionTokens,
    tokens: res.usage.promptTokens + res.usage.completionTokens,
  });
  try {
    return parseModelJson(res.text);
  } catch (err) {
    throw new InvalidAnswer((err as Error).message);
  }
}
