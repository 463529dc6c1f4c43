import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/db.js';
import { isTranslation, startReportEnv, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertProvider, insertSubscriber, insertTopic } from '../helpers/report-factories.js';
import { groundingReply, schemaOf } from '../peers/openai-peer.js';
import { DRAFT_GROUNDED as GROUNDED, PAPERS, quantumModel as model } from './grounding-fixtures.js';
import { weeklyReports } from '../../src/infrastructure/db/schema/index.js';

const WEEK = '2026-11-09';
const inWeek = (day: number) => new Date(Date.UTC(2026, 10, 9 + day, 12));

describe.each(dbKinds())('weekly reports grounded by the model (%s)', (dbKind) => {
  let env: ReportEnv;
  beforeAll(async () => {
    env = await startReportEnv(dbKind);
  });
  afterAll(() => env?.close());

  const db = () => env.t.container.database.db;

  async function topicWithPapers(name: string) {
    const topic = await insertTopic(db(), name);
    const ids: string[] = [];
    for (const [i, p] of PAPERS.entries())
      ids.push((await insertArticle(db(), topic.id, { ...p, publishedAt: inWeek(i) })).id);
    const reader = await insertSubscriber(db(), topic.id, { name: 'Ada' });
    return { topic, ids, reader };
  }

  it('keeps (a), corrects (c), drops (b) and (d), revises (e) and a reversed claim: stored, served and e-mailed alike', async () => {
    env.llm.chat = model();
    await insertProvider(db(), { baseUrl: env.llm.baseUrl });
    const { topic, ids, reader } = await topicWithPapers('Quantum sensing');

    const res = await env.runJob({ topic_id: topic.id, week_start: WEEK });
    expect(res.json().topics[0]).toMatchObject({ status: 'created', deliveries: { email: { sent: 1 } } });

    // the judge was asked in structured output, twice (the draft, then the revisions), the reviser once
    const judge = env.llm.chatCalls.filter((c) => schemaOf(c) === 'citation_judgements');
    const revise = env.llm.chatCalls.filter((c) => schemaOf(c) === 'citation_revisions');
    expect([judge.length, revise.length]).toEqual([2, 1]);
    expect(judge[0]!.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    // the revision is given the cited source's text as evidence
    const asked = JSON.parse(revise[0]!.messages[1]!.content) as {
      claims: { text: string; evidence: { n: number; text: string }[] }[];
    };
    expect(asked.claims.map((c) => [c.text, c.evidence.map((e) => e.n)])).toEqual([
      ['Quantum computers broke RSA encryption this week.', [2]],
      ['Atom interferometers measured gravity in the field for 30 days.', [2]],
      ['Sensitive magnetometers no longer need cryogenics.', [1]],
    ]);
    expect(asked.claims[1]!.evidence[0]!.text).toContain('for 14 days');

    // stored
    const [row] = await db().select().from(weeklyReports).where(eq(weeklyReports.topicId, topic.id));
    expect(row!.summaryText).toBe(GROUNDED);
    // sources in order of first citation: diamond, squeezed light, atom interferometers
    expect(row!.articleIds.slice(0, 3)).toEqual([ids[0], ids[2], ids[1]]);

    // served, with its grounding
    const report = (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json();
    expect(report.summary_text).toBe(GROUNDED);
    const g = report.grounding;
    expect(g.method).toBe('model');
    expect(g.sentences).toEqual([
      {
        index: 0,
        text: 'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1].',
        citations: [1],
        support: 'supported',
        evidence: [
          {
            n: 1,
            quote:
              'Diamond magnetometry with an ensemble of colour centres reaches 3 pT sensitivity at room temperature.',
          },
        ],
      },
      {
        index: 1,
        text: 'Diamond magnetometry reaches that sensitivity with colour centres, a first for the field [1].',
        citations: [1],
        support: 'partial',
        evidence: [
          {
            n: 1,
            quote:
              'Diamond magnetometry with an ensemble of colour centres reaches 3 pT sensitivity at room temperature.',
          },
        ],
      },
      {
        index: 3,
        text: 'Squeezed light reduced the shot noise of the LIGO detector by 6 dB [2].',
        citations: [2],
        support: 'supported',
        evidence: [{ n: 2, quote: PAPERS[2]!.summary }],
      },
      {
        index: 5,
        text: 'Atom interferometers measured gravity in the field for 14 days [3].',
        citations: [3],
        support: 'supported',
        evidence: [{ n: 3, quote: PAPERS[1]!.summary }],
        revised_from: 'Atom interferometers measured gravity in the field for 30 days [2].',
      },
      {
        index: 6,
        text: 'Sensitive magnetometers usually need cryogenics [1].',
        citations: [1],
        support: 'supported',
        evidence: [{ n: 1, quote: 'Sensitive magnetometers usually need cryogenics.' }],
        revised_from: 'Sensitive magnetometers no longer need cryogenics [1].',
      },
    ]);
    expect(g.removed).toEqual([
      { text: 'Quantum computers broke RSA encryption this week [2].', reason: 'not_in_source' },
      { text: 'Quantum sensors will replace GPS by 2030 [7].', reason: 'citation_out_of_range' },
    ]);
    // four supported and one partial (half) of five kept cited sentences
    const points = g.sentences.reduce(
      (s: number, x: { support: string }) => s + (x.support === 'supported' ? 1 : 0.5),
      0,
    );
    expect(g.score).toBe(points / g.sentences.length);
    expect(g.score).toBe(0.9);

    // translated from the grounded text, not the draft
    const translation = env.llm.chatCalls.find(isTranslation)!;
    expect(JSON.parse(translation.messages[1]!.content).summary_text).toBe(GROUNDED);
    const zh = (
      await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}&locale=zh-TW` })
    ).json();
    expect(zh.summary_text).toContain('- 原子干涉儀在野外連續 14 天測量重力 [3]。');
    expect(zh.grounding).toEqual(g);

    // e-mailed: the grounded text
    const mail = env.smtp.messages.find((m) => m.to[0] === reader.email)!;
    expect(mail.text).toContain('Atom interferometers measured gravity in the field for 14 days [3].');
    expect(mail.text).toContain('Squeezed light reduced the shot noise of the LIGO detector by 6 dB [2].');
    for (const gone of ['RSA', '2030', '30 days', 'no longer'])
      expect(mail.text + mail.html).not.toContain(gone);
  });

  it('keeps the local result, saying so, when the judge fails', async () => {
    env.llm.chat = model({ judge: () => ({ status: 400 }) });
    await insertProvider(db(), { baseUrl: env.llm.baseUrl });
    const { topic } = await topicWithPapers('Quantum sensing, judge down');
    const before = env.llm.chatCalls.length;

    const res = await env.runJob({ topic_id: topic.id, week_start: WEEK });
    expect(res.json().topics[0]).toMatchObject({ status: 'created' });
    const report = (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json();
    expect(report.grounding.method).toBe('local');
    // the local pass alone: (c) corrected, (b), (d), (e) dropped, the reversed claim kept
    expect(report.summary_text).toBe(
      [
        'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1]. Diamond magnetometry ' +
          'reaches that sensitivity with colour centres, a first for the field [1].',
        '',
        '- Squeezed light reduced the shot noise of the LIGO detector by 6 dB [2].',
        '- Sensitive magnetometers no longer need cryogenics [1].',
      ].join('\n'),
    );
    expect(report.grounding.removed.map((r: { reason: string }) => r.reason)).toEqual([
      'not_in_source',
      'citation_out_of_range',
      'figure_not_in_source',
    ]);
    // nothing was revised after the judge failed
    const calls = env.llm.chatCalls.slice(before);
    expect(calls.filter((c) => schemaOf(c) === 'citation_revisions')).toHaveLength(0);
  });

  it('does not take a quote the source does not hold as evidence', async () => {
    // a judge that quotes words no source has for the sentence on squeezed light (and its revision)
    env.llm.chat = model({
      judge: (call) => {
        const { claims } = JSON.parse(call.messages[1]!.content) as {
          claims: { id: number; text: string }[];
        };
        const { judgements } = JSON.parse(groundingReply(call)!) as { judgements: { id: number }[] };
        return JSON.stringify({
          judgements: judgements.map((j) =>
            /squeezed/i.test(claims.find((c) => c.id === j.id)!.text)
              ? { ...j, support: 'supported', quote: 'squeezed light changes everything' }
              : j,
          ),
        });
      },
    });
    await insertProvider(db(), { baseUrl: env.llm.baseUrl });
    const { topic } = await topicWithPapers('Quantum sensing, judge invents');

    const res = await env.runJob({ topic_id: topic.id, week_start: WEEK });
    expect(res.json().topics[0]).toMatchObject({ status: 'created' });
    const report = (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json();
    expect(report.grounding.method).toBe('model');
    expect(report.summary_text).not.toMatch(/squeezed/i);
    expect(report.grounding.removed).toContainEqual({
      text: 'Squeezed light reduced the shot noise of the LIGO detector by 6 dB [2].',
      reason: 'quote_not_in_source',
      revised: `${PAPERS[2]!.summary.slice(0, -1)} [3].`,
    });
    for (const s of report.grounding.sentences as { evidence: { quote: string }[] }[])
      for (const e of s.evidence)
        expect(report.summary_text + PAPERS.map((p) => p.summary).join(' ')).toContain(e.quote);
  });
});
