import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groundWithModel, type GroundingLimits } from '../../src/application/reports/model-grounding.js';
import type { Logger } from '../../src/application/shared/ports.js';
import { OpenAiLanguageModel } from '../../src/infrastructure/llm/openai-language-model.js';
import { groundingReply, schemaOf, type ChatCall, type ChatReply } from '../peers/openai-peer.js';
import { OpenAiPeer } from '../peers/openai-peer.js';

// the stored texts of three sources (title, summary)
const SOURCES = [
  'Diamond magnetometry at room temperature. Sensitive magnetometers usually need cryogenics. ' +
    'Diamond magnetometry with an ensemble of colour centres reaches 3 pT sensitivity at room temperature.',
  'Atom interferometers measure gravity in the field. Our atom interferometers measured gravity in ' +
    'the field for 14 days with a stability of 10 nGal.',
  'Squeezed light for gravitational-wave detectors. Injecting squeezed light reduced the shot noise ' +
    'of the LIGO detector by 6 dB across its band.',
];
const NOW = new Date('2026-11-23T08:00:00Z');
const A = 'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1].';
const E = 'Atom interferometers measured gravity in the field for 30 days [2].';

function recordingLogger(events: Record<string, unknown>[]): Logger {
  const log = (fields: Record<string, unknown>) => void events.push(fields);
  const logger: Logger = { debug: log, info: log, warn: log, error: log, child: () => logger };
  return logger;
}

let peer: OpenAiPeer;
beforeAll(async () => {
  peer = await new OpenAiPeer().start();
});
afterAll(() => peer?.stop());

/** Grounds `text` against the peer answering `chat` (the deterministic judge and reviser by default). */
async function ground(
  text: string,
  chat: (call: ChatCall) => ChatReply | Promise<ChatReply> = (call) => groundingReply(call) ?? '{}',
  opts: { sources?: string[]; limits?: Partial<GroundingLimits> } = {},
) {
  peer.chatCalls = [];
  peer.chat = chat;
  const events: Record<string, unknown>[] = [];
  const model = new OpenAiLanguageModel(
    {
      id: 'p',
      name: 'peer',
      type: 'text',
      baseUrl: peer.baseUrl,
      model: 'judge-test',
      imageModel: null,
      apiKey: 'sk-test',
      isActive: true,
    },
    { maxRetries: 0 },
  );
  const result = await groundWithModel({
    text,
    sources: opts.sources ?? SOURCES,
    model,
    now: NOW,
    logger: recordingLogger(events),
    limits: opts.limits,
  });
  return { ...result, events, calls: peer.chatCalls };
}

const judgeCalls = (calls: ChatCall[]) => calls.filter((c) => schemaOf(c) === 'citation_judgements');
const payload = (call: ChatCall) =>
  JSON.parse(call.messages[1]!.content) as {
    sources: { n: number; text: string }[];
    claims: { id: number; text: string; cited: number[] }[];
  };
/** the deterministic judgements of a call, changed for the claims `change` picks */
const judging =
  (change: (j: Record<string, unknown>, claim: string) => Record<string, unknown>) => (call: ChatCall) => {
    if (schemaOf(call) !== 'citation_judgements') return groundingReply(call) ?? '{}';
    const { claims } = payload(call);
    const { judgements } = JSON.parse(groundingReply(call)!) as { judgements: { id: number }[] };
    return JSON.stringify({
      judgements: judgements.map((j) => change(j, claims.find((c) => c.id === j.id)!.text)),
    });
  };

describe('grounding by the model, against an OpenAI-compatible peer', () => {
  it('takes a quote whatever its case, spacing and typography, and stores it as the source writes it', async () => {
    const { grounding } = await ground(
      A,
      judging((j) => ({
        ...j,
        quote: '  “DIAMOND magnetometry   with an ensemble of colour centres reaches 3 pT”… ',
      })),
    );
    expect(grounding.method).toBe('model');
    expect(grounding.sentences[0]!.evidence).toEqual([
      { n: 1, quote: 'Diamond magnetometry with an ensemble of colour centres reaches 3 pT' },
    ]);
  });

  it('re-cites a sentence to the better source the judge names, with its quote; ignores a source it was not shown', async () => {
    // the local pass finds part of it in source 1 (partial), the judge finds it in source 2
    const other = 'Gravity was measured in the field at room temperature [1].';
    const { text, grounding } = await ground(
      `${A} ${other}`,
      judging((j, claim) =>
        claim.startsWith('Gravity')
          ? { ...j, support: 'partial', quote: 'measured gravity in the field', better_source: 2 }
          : { ...j, better_source: 99 },
      ),
    );
    expect(text).toBe(`${A} Gravity was measured in the field at room temperature [2].`);
    expect(grounding.sentences.map((s) => [s.citations, s.evidence])).toEqual([
      [
        [1],
        [
          {
            n: 1,
            quote:
              'Diamond magnetometry with an ensemble of colour centres reaches 3 pT sensitivity at room temperature.',
          },
        ],
      ],
      [[2], [{ n: 2, quote: 'measured gravity in the field' }]],
    ]);
  });

  it('asks in bounded batches, each source cut to the passages the claims are about', async () => {
    const filler = Array.from(
      { length: 200 },
      (_, i) => `Paragraph ${i} is about unrelated matters of instrument housekeeping.`,
    ).join(' ');
    const long = `${filler} Cold atoms in a fountain clock kept time to one part in 10^18. ${filler}`;
    const sentences = Array.from(
      { length: 9 },
      () => 'Cold atoms in a fountain clock kept time to one part in 10^18 [4].',
    );
    const { grounding, calls } = await ground(sentences.join(' '), undefined, {
      sources: [...SOURCES, long],
      limits: { claimsPerCall: 4, excerptChars: 600 },
    });
    const judge = judgeCalls(calls);
    expect(judge.map((c) => payload(c).claims.length)).toEqual([4, 4, 1]);
    for (const call of judge)
      for (const s of payload(call).sources) {
        expect(s.text.length).toBeLessThanOrEqual(600);
        if (s.n === 4) expect(s.text).toContain('Cold atoms in a fountain clock kept time');
      }
    expect(grounding.sentences).toHaveLength(9);
    expect(grounding.sentences.every((s) => s.support === 'supported')).toBe(true);
  });

  it('asks once more when the answer is not the judgements asked for, then keeps the local result', async () => {
    let judged = 0;
    const once = await ground(A, (call) => {
      if (schemaOf(call) === 'citation_judgements' && judged++ === 0)
        return JSON.stringify({ judgements: [] }); // a judgement missing
      return groundingReply(call) ?? '{}';
    });
    expect(judgeCalls(once.calls)).toHaveLength(2);
    expect(once.grounding.method).toBe('model');

    const never = await ground(`${A}\n\n- Sensitive magnetometers no longer need cryogenics [1].`, (call) =>
      schemaOf(call) === 'citation_judgements'
        ? 'I think they are all fine.'
        : (groundingReply(call) ?? '{}'),
    );
    expect(judgeCalls(never.calls)).toHaveLength(2);
    expect(never.grounding.method).toBe('local');
    // the local pass keeps what it keeps (here the reversed claim, which only a model would catch)
    expect(never.text).toContain('no longer need cryogenics [1].');
    expect(never.events).toContainEqual(expect.objectContaining({ event: 'report.grounding.judge_failed' }));
  });

  it('gives up on a judge that does not answer in time, with the local result', async () => {
    const started = Date.now();
    const { grounding, text } = await ground(
      `${A} ${E}`,
      async (call) => {
        if (schemaOf(call) === 'citation_judgements') await new Promise((r) => setTimeout(r, 3000));
        return groundingReply(call) ?? '{}';
      },
      { limits: { timeoutMs: 400 } },
    );
    expect(Date.now() - started).toBeLessThan(2500);
    expect(grounding.method).toBe('local');
    expect(text).toBe(A);
    expect(grounding.removed).toEqual([{ text: E, reason: 'figure_not_in_source' }]);
  });

  it('refuses revisions that are not one plain sentence, and ignores markers the reviser adds', async () => {
    const B = 'Squeezed light cut the noise of LIGO by 9 dB [3].';
    const C = 'Sensitive magnetometers no longer need cryogenics [1].';
    const { text, grounding } = await ground(`${E}\n\n- ${B}\n- ${C}`, (call) => {
      if (schemaOf(call) !== 'citation_revisions') return groundingReply(call) ?? '{}';
      const { revisions } = JSON.parse(groundingReply(call)!) as {
        revisions: { id: number; text: string }[];
      };
      const texts = [
        'Atom interferometers measured gravity for 14 days [9].', // a marker of its own: ours replaces it
        'Squeezed light reduced the noise of LIGO by 6 dB.\n\n# And a heading. With a second sentence.',
        'x'.repeat(5000),
      ];
      return JSON.stringify({ revisions: revisions.map((r, i) => ({ ...r, text: texts[i] })) });
    });
    expect(text).toBe('Atom interferometers measured gravity for 14 days [2].');
    expect(grounding.sentences[0]).toMatchObject({ revised_from: E, citations: [2], support: 'supported' });
    expect(grounding.removed).toEqual([
      { text: B, reason: 'figure_not_in_source' },
      { text: C, reason: 'unsupported_by_model' },
    ]);
  });
});
