/**
 * Scraper pipeline budget (docs/performance.md): 1,000 new articles through the whole pipeline (discover,
 * fetch, dedup, publish, processing, analysis by a zero-latency OpenAI-compatible peer, tagging,
 * translation) at >= 400 articles/s on PostgreSQL and >= 250 on PGlite (both run when the bench has a
 * PostgreSQL URL), and the cost of tracing (OTLP export to a loopback receiver) at most 5 % of the
 * pipeline process's CPU time. Each mode is one service (its own database and
 * container) kept for the whole scenario; each run scrapes new feed items. After one untimed run of
 * each mode, fifteen rounds run both modes (which goes first alternates). Each figure is the median of
 * the rounds (bench/types.ts `Rounds`): of the slower mode's rate in each round for the throughput,
 * of each round's CPU time on / off for the tracing overhead (one run's CPU time varies by ±15%
 * here; the model peer and the OTLP receiver run in processes of their own); the best runs and the
 * ratio of the modes' median CPU times are in the notes. A run counts only when every article was stored, analyzed, tagged and translated; its
 * time runs from the start of the run to its end (all articles written, the run recorded), its CPU
 * time until the spans it left in the buffer are exported.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import type { BenchContext, BenchResult, Scenario } from '../types.js';
import {
  loadConfig,
  createContainer,
  openDatabase,
  type Container,
  type Database,
  ScryptHasher,
  LINK_BATCH,
} from '../../src/composition/bench-entry.js';
import { makeItem, rssFeed, startFeedServer } from '../support/feed-items.js';
import { loadNote } from '../perf/perf-support.js';
import { median, roundsOf } from '../rounds.js';
import { sql } from 'drizzle-orm';

/**
 * The LLM peer runs in a child process: its request handling is not the pipeline's cost. `env`
 * gives it a latency and a rate limit (bench/pipeline/llm-peer.process.ts).
 */
export async function startLlmPeer(env: Record<string, string> = {}): Promise<{
  baseUrl: string;
  /** chat calls answered and refused with 429 so far, and the most answered at once */
  count(): Promise<{
    calls: number;
    rateLimited: number;
    maxInFlight: number;
    promptTokens: number;
    completionTokens: number;
  }>;
  stop(): void;
}> {
  const child = fork(fileURLToPath(new URL('../pipeline/llm-peer.process.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { baseUrl: string }).baseUrl));
    child.once('exit', (code) => reject(new Error(`LLM peer exited with ${code}`)));
  });
  return {
    baseUrl,
    count: () =>
      new Promise((resolve) => {
        child.once('message', (m) =>
          resolve(
            m as {
              calls: number;
              rateLimited: number;
              maxInFlight: number;
              promptTokens: number;
              completionTokens: number;
            },
          ),
        );
        child.send('count');
      }),
    stop: () => child.disconnect(),
  };
}

/**
 * The loopback OTLP receiver in a child process too: receiving the exports is the trace store's
 * work, not the pipeline's, and must not count in the measured process's CPU time.
 */
export async function startOtlpReceiver(): Promise<{
  url: string;
  /** spans received so far, by name */
  count(): Promise<Record<string, number>>;
  stop(): void;
}> {
  const child = fork(fileURLToPath(new URL('../pipeline/otlp-receiver.process.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`OTLP receiver exited with ${code}`)));
  });
  return {
    url,
    count: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { byName: Record<string, number> }).byName));
        child.send('count');
      }),
    stop: () => child.disconnect(),
  };
}

export async function freshDatabase(url: string | undefined): Promise<Database> {
  if (!url) return openDatabase({ dataDir: 'memory://' });
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: u.toString(), poolSize: 10 });
  return {
    ...db,
    async close() {
      await db.close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** One mode's service in the bench process: its own database and container, kept for every run. */
export interface PipelineRig {
  /** one scraper run of the feeds' current items, timed; the CPU time includes exporting its spans */
  run(): Promise<{
    id: string;
    seconds: number;
    cpuSeconds: number;
    counts: Record<string, number>;
    status: string;
  }>;
  /** links the articles into works as the `work.link` jobs do (LINK_BATCH at a time); answers its CPU seconds */
  link(articleIds: string[]): Promise<number>;
  /** the rig's database, read through the public schema */
  database: Database;
  /** the rig's service (its batch jobs, its model-usage accounting) */
  container: Container;
  close(): Promise<void>;
}

export async function startRig(
  ctx: BenchContext,
  env: Record<string, string>,
  feedUrls: string[],
  llmUrl: string,
): Promise<PipelineRig> {
  const database = await freshDatabase(ctx.databaseUrl);
  const config = loadConfig({
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    DATA_DIR: '/tmp/article-intel-bench',
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    ...env,
  });
  const container = await createContainer(config, {
    database,
    logger: pino({ level: 'silent' }),
    hasher: new ScryptHasher({ N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }),
  });
  const close = async () => {
    await container.close();
    await database.close();
  };
  try {
    const catalog = container.services.catalog;
    const topic = await catalog.createTopic({ name: 'Bench' });
    for (const [i, url] of feedUrls.entries())
      await catalog.createSource({ topic_id: topic.id, name: `Feed ${i}`, kind: 'rss', url });
    await catalog.createProvider({
      name: 'peer',
      type: 'text',
      base_url: llmUrl,
      model: 'm',
      is_active: true,
    });
    // as in a worker process: the job queue is up before a run starts
    for (const w of container.workers.filter((w) => w.name === 'article-jobs')) {
      w.start();
      await w.ready?.();
    }
  } catch (err) {
    await close();
    throw err;
  }
  return {
    async run() {
      const started = performance.now();
      const cpu = process.cpuUsage();
      const run = await container.services.scraper.runNow('bench');
      const seconds = (performance.now() - started) / 1000;
      // the spans still held are exported now, inside the measured CPU time: they are this run's
      await container.telemetry.flush();
      const used = process.cpuUsage(cpu);
      return {
        id: run.id,
        seconds,
        cpuSeconds: (used.user + used.system) / 1e6,
        counts: run.counts,
        status: run.status,
      };
    },
    async link(articleIds) {
      const cpu = process.cpuUsage();
      for (let i = 0; i < articleIds.length; i += LINK_BATCH)
        await container.services.workLinker.linkArticles(articleIds.slice(i, i + LINK_BATCH));
      const used = process.cpuUsage(cpu);
      return (used.user + used.system) / 1e6;
    },
    database,
    container,
    close,
  };
}

/** articles a second, the slower of tracing on and off (issue 30, item 3) */
const THROUGHPUT_BUDGET = { postgres: 400, pglite: 250 } as const;
/** CPU of the traced pipeline over the untraced: tracing costs at most 5 % (issue 30, item 4) */
const TRACING_BUDGET = 1.05;

/**
 * rounds of the pipeline scenario, each one run with tracing off and one with it on. Nine until
 * session 30: one mode's CPU time for the same 1,000 articles spread 0.74-1.34 s over nine rounds,
 * so the median of nine rounds' ratios moved by about ±0.07, more than tracing's budget of 0.05;
 * fifteen narrow it by about a quarter, at ~25 s (PostgreSQL) to ~50 s (PGlite) more a scenario
 */
const ROUNDS = 15;
/** untimed runs of each mode before the rounds */
const WARM_UP_RUNS = 3;

/** throughput and tracing's cost on ctx's database (PostgreSQL when it has a URL, else PGlite) */
async function throughput(ctx: BenchContext): Promise<BenchResult[]> {
  const n = ctx.quick ? 200 : 1000;
  const perFeed = n / 4;
  const llm = await startLlmPeer();
  const receiver = await startOtlpReceiver();
  // the feeds are served from this record: each run gets new items (new articles to store)
  const bodies: Record<string, string> = {};
  const freshItems = () => {
    for (let f = 0; f < 4; f++)
      bodies[`/feed-${f}.xml`] = rssFeed(
        Array.from({ length: perFeed }, (_, i) =>
          makeItem({ title: `Bench article ${f}-${i}: ${makeItem().title}` }),
        ),
      );
  };
  freshItems();
  const feeds = await startFeedServer(bodies);
  const urls = Array.from({ length: 4 }, (_, f) => `${feeds.url}/feed-${f}.xml`);
  const tracing = { MONITOR_OTLP_USER: 'u', MONITOR_API_KEY: 'k', MONITOR_OTLP_ENDPOINT: receiver.url };
  // one service per mode for the whole scenario, as a deployed process runs: tracing's cost is
  // what it adds to a running pipeline, not the set-up of a provider and exporters per run
  const rigs = { off: await startRig(ctx, {}, urls, llm.baseUrl), on: null as PipelineRig | null };
  try {
    rigs.on = await startRig(ctx, tracing, urls, llm.baseUrl);
    const off: number[] = [];
    const on: number[] = [];
    // the pipeline process's CPU time per run (the model peer and the OTLP receiver are other
    // processes): less sensitive than wall time to other work on the machine
    const cpu: Record<'off' | 'on', number[]> = { off: [], on: [] };
    const notes: string[] = [];
    // untimed runs of each mode first: the first runs in a process pay for loading and compiling
    // the pipeline's code (and tracing's), which is not tracing's cost. One each was not enough
    // once the scenario had a process of its own (bench/isolate.ts): the first three timed rounds
    // of both modes still cost 10-50 % more CPU than the rest (session 29)
    for (let w = 0; w < WARM_UP_RUNS; w++)
      for (const rig of [rigs.off, rigs.on]) {
        freshItems();
        await rig.run();
      }
    // each round runs both modes, in turns first (off-on, on-off, ...), so that the machine
    // drifting during the scenario weighs on both alike
    const modes = [
      ['off', rigs.off, off],
      ['on', rigs.on, on],
    ] as const;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [mode, rig, into] of round % 2 ? [...modes].reverse() : modes) {
        freshItems();
        const r = await rig.run();
        // the timing counts only when every article went the whole way: stored, analyzed, tagged, translated
        const c = r.counts;
        if (
          r.status !== 'completed' ||
          [c.published, c.analyzed, c.tagged, c.translated].some((v) => v !== n)
        )
          throw new Error(
            `tracing ${mode}: run ${r.status} with counts ${JSON.stringify(c)} (expected ${n})`,
          );
        into.push(r.seconds);
        cpu[mode].push(r.cpuSeconds);
        notes.push(`${mode}=${r.seconds.toFixed(2)}s`);
      }
    }
    const bestOff = Math.min(...off);
    const bestOn = Math.min(...on);
    const rateOff = n / bestOff;
    const rateOn = n / bestOn;
    // the budget holds for both modes: each round's slower mode, median over the rounds
    const rate = roundsOf(
      off.map((s, i) => n / Math.max(s, on[i]!)),
      'figure',
      0,
    );
    const wallOverhead = bestOn / bestOff;
    // the budget: CPU time of the pipeline process, tracing on / off, as the median of the
    // rounds' own ratios (a round runs both modes back to back); wall clock depends on what else
    // the machine's cores are doing. The ratio of the two modes' medians is in the notes: over
    // four runs it spread half as wide (1.06–1.12 against 1.03–1.18), but it has no rounds of its own
    const cpuOff = median(cpu.off);
    const cpuOn = median(cpu.on);
    const ratioOfMedians = cpuOn / cpuOff;
    const cpuRatio = roundsOf(
      cpu.on.map((c, i) => c / cpu.off[i]!),
      'ratio',
      3,
    );
    const spans = (await receiver.count())['article.pipeline'] ?? 0;
    // the warm-up's spans too
    const expected = (on.length + WARM_UP_RUNS) * n;
    const db = ctx.databaseUrl ? 'postgres' : 'pglite';
    const budget = THROUGHPUT_BUDGET[db];
    return [
      {
        scenario: `pipeline.throughput.${db}`,
        figure: rate.median,
        unit: 'articles/s',
        budget: `>= ${budget} articles/s (tracing on and off)`,
        rounds: rate,
        pass: rate.median >= budget,
        notes:
          `${n} articles; each round's slower mode, median of ${ROUNDS} rounds; best off ${Math.round(rateOff)}/s, on ${Math.round(rateOn)}/s; ` +
          `median off ${Math.round(n / median(off))}/s, on ${Math.round(n / median(on))}/s; ` +
          `median CPU of the pipeline process off ${cpuOff.toFixed(2)} s, on ${cpuOn.toFixed(2)} s; ${notes.join(' ')}`,
      },
      {
        scenario: `pipeline.tracing_overhead.${db}`,
        figure: Math.round((cpuRatio.median - 1) * 1000) / 10,
        unit: '% CPU',
        floor: Math.round(cpuOff * 1000) / 1000,
        ratio: cpuRatio.median,
        budget: `CPU of the pipeline process, tracing on / off (median of the rounds) <= ${TRACING_BUDGET}`,
        rounds: cpuRatio,
        pass: cpuRatio.median <= TRACING_BUDGET && spans === expected,
        notes:
          `article.pipeline spans received: ${spans} (expected ${expected}); ` +
          `CPU per round off ${cpu.off.map((c) => c.toFixed(2)).join('/')} s, on ${cpu.on.map((c) => c.toFixed(2)).join('/')} s; ` +
          `ratio of the modes' medians ${ratioOfMedians.toFixed(3)}; wall clock on / off (best runs): ${wallOverhead.toFixed(3)}`,
      },
    ];
  } finally {
    await rigs.off.close();
    await rigs.on?.close();
    llm.stop();
    receiver.stop();
    await feeds.stop();
  }
}

export const scenarios: Scenario[] = [
  // PGlite (the embedded default) always, PostgreSQL when the bench has one; two scenarios, so each
  // runs in a process of its own (bench/isolate.ts), as a service runs on one database
  {
    name: 'pipeline.throughput.pglite',
    run: (ctx) => throughput({ ...ctx, databaseUrl: undefined }),
  },
  {
    name: 'pipeline.throughput.postgres',
    run: async (ctx) => (ctx.databaseUrl ? throughput(ctx) : []),
  },
  {
    /**
     * Issue 28: linking an article into its work (identifier keys, text fingerprint, candidates by
     * MinHash bands, the join) costs at most 10 % of what the pipeline spends on it. Each round
     * stores n new articles of distinct texts through the pipeline (zero-latency model, tracing
     * off), then links them as the work.link jobs do; the figure is the ratio of the two CPU times
     * of this process, the median of the rounds' ratios (bench/types.ts `Rounds`).
     */
    name: 'pipeline.work_linking',
    async run(ctx) {
      const n = ctx.quick ? 100 : 500;
      const rounds = ctx.quick ? 2 : 5;
      const llm = await startLlmPeer();
      const bodies: Record<string, string> = {};
      const vocabulary =
        'protein folding attention sparse memory lattice quantum error code qubit graphene ice sheet climate model ocean carbon soil microbe drought yield neural network training data benchmark compiler type proof contract ledger galaxy survey telescope spectrum vaccine trial cohort gene expression cell'.split(
          ' ',
        );
      const text = () =>
        Array.from({ length: 120 }, () => vocabulary[Math.floor(Math.random() * vocabulary.length)]).join(
          ' ',
        ) + '.';
      const freshItems = () => {
        bodies['/feed.xml'] = rssFeed(
          Array.from({ length: n }, (_, i) =>
            makeItem({ title: `Linking bench ${i}: ${text().slice(0, 60)}`, summary: text() }),
          ),
        );
      };
      freshItems();
      const feeds = await startFeedServer(bodies);
      const rig = await startRig(ctx, {}, [`${feeds.url}/feed.xml`], llm.baseUrl);
      /** the ids of the n articles the last run stored */
      const latestIds = async () =>
        (
          (await rig.database.db.execute(
            sql`select id from articles order by scraped_at desc, id limit ${n}`,
          )) as unknown as { rows: { id: string }[] }
        ).rows.map((x) => x.id);
      try {
        // warm-up, untimed: the pipeline's code and the linker's loaded and compiled (in a process
        // of its own, bench/isolate.ts, the first timed round's linking cost 3-4x the others')
        for (let w = 0; w < 2; w++) {
          if (w) freshItems();
          const r = await rig.run();
          if (r.status !== 'completed') throw new Error(`warm-up run ${r.status}`);
          await rig.link(await latestIds());
        }
        const pipeline: number[] = [];
        const linking: number[] = [];
        for (let round = 0; round < rounds; round++) {
          freshItems();
          const r = await rig.run();
          if (r.status !== 'completed' || r.counts.published !== n)
            throw new Error(`run ${r.status} with counts ${JSON.stringify(r.counts)} (expected ${n})`);
          const ids = await latestIds();
          pipeline.push(r.cpuSeconds);
          linking.push(await rig.link(ids));
        }
        const ratio = roundsOf(
          linking.map((l, i) => l / pipeline[i]!),
          'ratio',
          3,
        );
        const db = ctx.databaseUrl ? 'postgres' : 'pglite';
        return [
          {
            scenario: `pipeline.work_linking.${db}`,
            figure: Math.round(ratio.median * 1000) / 10,
            unit: '% of the pipeline CPU',
            floor: Math.round(median(pipeline) * 1000) / 1000,
            ratio: ratio.median,
            budget: 'linking CPU / pipeline CPU per article (median of the rounds) <= 0.10',
            rounds: ratio,
            pass: ratio.median <= 0.1,
            notes: `${n} articles a round, ${rounds} rounds; CPU pipeline ${pipeline.map((c) => c.toFixed(2)).join('/')} s, linking ${linking.map((c) => c.toFixed(2)).join('/')} s; ratio of the medians ${(median(linking) / median(pipeline)).toFixed(3)}; ${await loadNote()}`,
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
