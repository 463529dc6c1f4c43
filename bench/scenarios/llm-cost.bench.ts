/**
 * What the language model costs (issue 30, item 1): model calls and tokens per article of a scraper
 * run and per weekly report, as the service itself accounts them (the `llm_usage` table, per
 * purpose and run, which the Service tab and `GET /admin/runs/{id}` show). The OpenAI-compatible
 * peer reports tokens as a provider does, estimated at ~4 UTF-8 bytes a token over the prompt and
 * the answer (bench/pipeline/llm-peer.process.ts), and keeps its own totals: the service's accounting
 * must equal them. One run of `n` new articles (the one-call analysis: summary, tags and the zh-TW
 * title and summary from one structured answer), then one weekly report of their topic and week
 * (written, then translated). Counts over a fixed set: one round each.
 */
import { sql } from 'drizzle-orm';
import type { Scenario } from '../types.js';
import { roundsOf } from '../rounds.js';
import { rowsOf } from '../../src/composition/bench-entry.js';
import { makeItem, rssFeed, startFeedServer } from '../support/feed-items.js';
import { startLlmPeer, startRig, type PipelineRig } from './pipeline.bench.js';

/** issue 30, item 1: one model call an article */
const CALLS_PER_ARTICLE = 1;
/** the articles' week (a Monday) and a day in it */
const WEEK_START = '2026-11-16';
const PUBLISHED = 'Tue, 17 Nov 2026 12:00:00 GMT';

interface Usage {
  purpose: string;
  calls: number;
  prompt: number;
  completion: number;
}

/** the service's accounting of the model, per purpose, for one run (or for calls outside any run) */
async function usageOf(rig: PipelineRig, runId: string | null): Promise<Usage[]> {
  const run = runId ?? '00000000-0000-0000-0000-000000000000';
  return rowsOf<Usage>(
    await rig.database.db.execute(sql`
      select purpose, sum(calls)::int as calls, sum(prompt_tokens)::bigint::float8 as prompt,
             sum(completion_tokens)::bigint::float8 as completion
      from llm_usage where run_id = ${run} group by purpose order by purpose`),
  ).map((u) => ({
    ...u,
    calls: Number(u.calls),
    prompt: Number(u.prompt),
    completion: Number(u.completion),
  }));
}

const sum = (us: Usage[]) =>
  us.reduce(
    (t, u) => ({
      calls: t.calls + u.calls,
      prompt: t.prompt + u.prompt,
      completion: t.completion + u.completion,
    }),
    { calls: 0, prompt: 0, completion: 0 },
  );

/** waits until the usage recorder (which writes once a second) has written what the peer counted */
async function settled(
  read: () => Promise<Usage[]>,
  expected: { calls: number; prompt: number; completion: number },
): Promise<Usage[]> {
  const until = Date.now() + 15_000;
  for (;;) {
    const us = await read();
    const t = sum(us);
    if (
      (t.calls === expected.calls && t.prompt === expected.prompt && t.completion === expected.completion) ||
      Date.now() > until
    )
      return us;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const describe = (us: Usage[], per: number) =>
  us
    .map(
      (u) =>
        `${u.purpose}: ${(u.calls / per).toFixed(2)} calls, ${Math.round(u.prompt / per)} in / ${Math.round(u.completion / per)} out`,
    )
    .join('; ');

export const scenarios: Scenario[] = [
  {
    name: 'pipeline.llm_cost',
    async run(ctx) {
      const n = ctx.quick ? 40 : 200;
      const llm = await startLlmPeer();
      const bodies: Record<string, string> = {
        '/feed.xml': rssFeed(Array.from({ length: n }, () => makeItem({ published: PUBLISHED }))),
      };
      const feeds = await startFeedServer(bodies);
      const rig = await startRig(ctx, {}, [`${feeds.url}/feed.xml`], llm.baseUrl);
      try {
        // the articles
        const before = await llm.count();
        const run = await rig.run();
        if (run.status !== 'completed' || run.counts.published !== n)
          throw new Error(`run ${run.status} with counts ${JSON.stringify(run.counts)} (expected ${n})`);
        const afterRun = await llm.count();
        const peerRun = {
          calls: afterRun.calls - before.calls,
          prompt: afterRun.promptTokens - before.promptTokens,
          completion: afterRun.completionTokens - before.completionTokens,
        };
        const runUsage = await settled(() => usageOf(rig, run.id), peerRun);
        const runTotal = sum(runUsage);
        const runExact =
          runTotal.calls === peerRun.calls &&
          runTotal.prompt === peerRun.prompt &&
          runTotal.completion === peerRun.completion;
        const callsPerArticle = runTotal.calls / n;

        // one weekly report of the topic and week
        const [topic] = rowsOf<{ id: string }>(
          await rig.database.db.execute(sql`select id from topics order by created_at limit 1`),
        );
        const summary = await rig.container.batch.weeklyReports.run({
          topicId: topic!.id,
          weekStart: WEEK_START,
        });
        const created = summary.topics.filter((t) => t.status === 'created').length;
        if (created !== 1) throw new Error(`weekly report: ${JSON.stringify(summary.topics)}`);
        const afterReport = await llm.count();
        const peerReport = {
          calls: afterReport.calls - afterRun.calls,
          prompt: afterReport.promptTokens - afterRun.promptTokens,
          completion: afterReport.completionTokens - afterRun.completionTokens,
        };
        const reportUsage = await settled(() => usageOf(rig, null), peerReport);
        const reportTotal = sum(reportUsage);
        const reportExact =
          reportTotal.calls === peerReport.calls &&
          reportTotal.prompt === peerReport.prompt &&
          reportTotal.completion === peerReport.completion;

        const accounting = (exact: boolean, t: typeof runTotal, peer: typeof peerRun) =>
          exact
            ? `recorded as the provider reported: ${t.calls} calls, ${t.prompt} tokens in, ${t.completion} out`
            : `RECORDED ${t.calls} calls, ${t.prompt} in, ${t.completion} out AGAINST the provider's ${peer.calls}, ${peer.prompt}, ${peer.completion}`;
        return [
          {
            scenario: 'pipeline.llm_cost per article',
            figure: Math.round(callsPerArticle * 100) / 100,
            unit: 'model calls',
            budget: `<= ${CALLS_PER_ARTICLE} model call an article, every call's tokens recorded as the provider reported them`,
            rounds: roundsOf([callsPerArticle], 'figure'),
            pass: callsPerArticle <= CALLS_PER_ARTICLE && runExact,
            notes:
              `${n} articles in one run; tokens an article ${Math.round(runTotal.prompt / n)} in / ${Math.round(runTotal.completion / n)} out ` +
              `(the peer counts ~4 UTF-8 bytes a token); by purpose, an article: ${describe(runUsage, n)}; ` +
              accounting(runExact, runTotal, peerRun),
          },
          {
            scenario: 'pipeline.llm_cost per report',
            figure: reportTotal.calls,
            unit: 'model calls',
            budget: "every call's tokens recorded as the provider reported them",
            rounds: roundsOf([reportTotal.calls], 'figure'),
            pass: reportExact && reportTotal.calls > 0,
            notes:
              `one weekly report of the run's topic (week of ${WEEK_START}, at most 20 articles): ` +
              `${reportTotal.prompt} tokens in / ${reportTotal.completion} out; by purpose: ${describe(reportUsage, 1)}; ` +
              accounting(reportExact, reportTotal, peerReport),
          },
        ];
      } finally {
        await rig.close();
        llm.stop();
        await feeds.stop();
      }
    },
  },
];
