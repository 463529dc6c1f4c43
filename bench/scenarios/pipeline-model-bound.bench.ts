/**
 * The pipeline bound by its model, as users run it: an OpenAI-compatible peer that takes 800 ms a
 * call and answers 429 with `Retry-After: 1` past 8 concurrent calls, against the default job and
 * model concurrency (16 each). The model client learns the limit (docs/decisions/0120-model-rate-limits-learned.md); the
 * scenario measures articles analysed per minute (the provider allows at most 8 / 0.8 s = 600), the
 * time from an article's fetch (stored) to listed (its final status written) at p50 and p95, and
 * counts the failed articles and the 429s. After an untimed run of 40, three rounds of 160 new
 * articles on one service; the figure is the median of the rounds' rates (bench/types.ts `Rounds`).
 */
import { eq, sql } from 'drizzle-orm';
import type { Scenario } from '../types.js';
import { roundsOf } from '../rounds.js';
import { articles } from '../../src/composition/bench-entry.js';
import { makeItem, rssFeed, startFeedServer } from '../support/feed-items.js';
import { startLlmPeer, startRig } from './pipeline.bench.js';

const LATENCY_MS = 800;
const MAX_CONCURRENT = 8;
/** the budget: 80% of what the provider's limit allows */
const BUDGET_PER_MINUTE = 0.8 * MAX_CONCURRENT * (60_000 / LATENCY_MS);

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;

export const scenarios: Scenario[] = [
  {
    name: 'pipeline.model_bound',
    async run(ctx) {
      const n = ctx.quick ? 40 : 160;
      const rounds = ctx.quick ? 1 : 3;
      const llm = await startLlmPeer({
        LLM_PEER_LATENCY_MS: String(LATENCY_MS),
        LLM_PEER_MAX_CONCURRENT: String(MAX_CONCURRENT),
        LLM_PEER_RETRY_AFTER_S: '1',
      });
      const bodies: Record<string, string> = {};
      const feeds = await startFeedServer(bodies);
      const rig = await startRig(ctx, {}, [`${feeds.url}/feed.xml`], llm.baseUrl);
      try {
        const perMinute: number[] = [];
        const latencies: number[] = [];
        let failed = 0;
        // an untimed first run of a quarter the size: the process loads its code and the model
        // client meets the provider's limit (its 429s are in the refused count)
        bodies['/feed.xml'] = rssFeed(
          Array.from({ length: n / 4 }, (_, i) =>
            makeItem({ title: `Model-bound warm-up ${i}: ${makeItem().title}` }),
          ),
        );
        await rig.run();
        for (let round = 0; round < rounds; round++) {
          bodies['/feed.xml'] = rssFeed(
            Array.from({ length: n }, (_, i) =>
              makeItem({ title: `Model-bound ${round}-${i}: ${makeItem().title}` }),
            ),
          );
          const r = await rig.run();
          if (r.status !== 'completed' || r.counts.published !== n)
            throw new Error(`run ${r.status} with counts ${JSON.stringify(r.counts)} (expected ${n})`);
          perMinute.push((n / r.seconds) * 60);
          const rows = await rig.database.db
            .select({
              status: articles.processingStatus,
              ms: sql<number>`extract(epoch from (${articles.updatedAt} - ${articles.scrapedAt})) * 1000`,
            })
            .from(articles)
            .where(eq(articles.runId, r.id));
          failed += rows.filter((a) => a.status !== 'completed').length;
          latencies.push(...rows.map((a) => Number(a.ms)));
        }
        const peer = await llm.count();
        const sortedRates = [...perMinute].sort((a, b) => a - b);
        const o = roundsOf(perMinute, 'figure', 0);
        const sorted = [...latencies].sort((a, b) => a - b);
        const db = ctx.databaseUrl ? 'postgres' : 'pglite';
        return [
          {
            scenario: `pipeline.model_bound.${db}`,
            figure: o.median,
            unit: 'articles/min',
            budget: `>= ${BUDGET_PER_MINUTE} articles/min (median of ${rounds}), zero failed articles`,
            rounds: o,
            pass: o.median >= BUDGET_PER_MINUTE && failed === 0,
            notes:
              `${rounds} rounds of ${n} articles; model ${LATENCY_MS} ms a call, 429 past ${MAX_CONCURRENT} at once; ` +
              `articles/min ${sortedRates.map((x) => Math.round(x)).join('/')} (min–max ${Math.round(sortedRates[0]!)}–${Math.round(sortedRates.at(-1)!)}); ` +
              `fetch→listed p50 ${(quantile(sorted, 0.5) / 1000).toFixed(1)} s, p95 ${(quantile(sorted, 0.95) / 1000).toFixed(1)} s; ` +
              `failed articles ${failed}; model calls ${peer.calls}, refused with 429 ${peer.rateLimited}, most at once ${peer.maxInFlight}`,
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
