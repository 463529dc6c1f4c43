/**
 * Scale-out on PostgreSQL (issue 15): 1,000 article jobs processed by one and by two `worker`
 * processes sharing the queue, each count of workers on a fresh database: articles/s from the first
 * job sent to the last article in its final state, and exactly-once counted from the workers' own
 * processing logs (`article.analysis.summarized` per article id). The model is the zero-latency peer
 * in its own process. On this 2-core machine the workers, PostgreSQL and the peer share the cores,
 * so the 2-worker figure shows the sharing works, not a 2x. The same workers take ROUNDS runs of
 * 1,000 new articles each; the figure is the median of the runs' rates (bench/types.ts `Rounds`),
 * and the budget, exactly once, holds for every article of every round.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import type { BenchContext, BenchResult, Scenario } from '../types.js';
import {
  loadConfig,
  createContainer,
  rowsOf,
  type Db,
  articles,
  scraperRuns,
  ARTICLE_QUEUE,
} from '../../src/composition/bench-entry.js';
import { makeItem } from '../support/feed-items.js';
import { median, roundsOf } from '../rounds.js';
import { freshDatabase, startLlmPeer } from './pipeline.bench.js';

/**
 * The run's articles still to be processed (status new or analyzed) and those that went through to
 * the end (completed, or completed without their translation), read from the articles table.
 */
async function progressOf(db: Db, runId: string): Promise<{ pending: number; completed: number }> {
  const [r] = rowsOf<{ pending: number; completed: number }>(
    await db.execute(sql`
      select count(*) filter (where processing_status in ('new', 'analyzed'))::int as "pending",
             count(*) filter (where processing_status in ('completed', 'translation_failed'))::int as "completed"
      from articles where run_id = ${runId}`),
  );
  return { pending: Number(r!.pending), completed: Number(r!.completed) };
}

interface Worker {
  analysed: string[];
  ready: Promise<void>;
  stop(): Promise<number | null>;
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const analysed: string[] = [];
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let i;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      if (line.includes('"article.analysis.summarized"'))
        analysed.push(String((JSON.parse(line) as { article_id: string }).article_id));
      else if (line.includes('"pipeline.jobs.started"')) markReady();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    analysed,
    ready,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** one round: its time, the articles that reached the end, and the ids of its articles */
interface WorkersRound {
  seconds: number;
  completed: number;
  ids: string[];
}

async function timeWorkers(ctx: BenchContext, workers: number, n: number, rounds: number, llmUrl: string) {
  const database = await freshDatabase(ctx.databaseUrl);
  const dataDir = mkdtempSync(join(tmpdir(), 'ai-bench-workers-'));
  const config = loadConfig({
    DATABASE_URL: ctx.databaseUrl!,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
  });
  const container = await createContainer(config, { database, logger: pino({ level: 'silent' }) });
  const procs: Worker[] = [];
  try {
    const catalog = container.services.catalog;
    const topic = await catalog.createTopic({ name: 'Bench workers' });
    const source = await catalog.createSource({
      topic_id: topic.id,
      name: 'Feed',
      kind: 'rss',
      url: 'https://feed.example/rss',
    });
    await catalog.createProvider({
      name: 'peer',
      type: 'text',
      base_url: llmUrl,
      model: 'm',
      is_active: true,
    });
    // the database the workers open: the bench's fresh one (DATABASE_URL of the container's pool)
    const env = { DATABASE_URL: database.connectionString!, DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false' };
    for (let i = 0; i < workers; i++) procs.push(startWorker(env));
    await Promise.all(procs.map((p) => p.ready));

    const done: WorkersRound[] = [];
    for (let round = 0; round < rounds; round++) {
      // the run and its articles as a scraper run stores them: the run holds its articles as pending
      const [run] = await database.db
        .insert(scraperRuns)
        .values({
          trigger: 'cli',
          correlationId: `bench-${round}`,
          owner: `${hostname()}:${process.pid}`,
          heartbeatAt: new Date(),
          articlesPending: n,
          progressTotal: n,
        })
        .returning({ id: scraperRuns.id });
      const stored = await database.db
        .insert(articles)
        .values(
          Array.from({ length: n }, (_, i) => {
            const it = makeItem({ title: `Bench worker article ${round}-${i}: ${makeItem().title}` });
            return {
              topicId: topic.id,
              sourceId: source.id,
              runId: run!.id,
              source: 'Feed',
              url: it.url,
              canonicalUrl: it.url,
              title: it.title,
              normalizedTitle: it.title.toLowerCase(),
              content: it.summary,
            };
          }),
        )
        .returning({ id: articles.id, canonicalUrl: articles.canonicalUrl });
      const started = performance.now();
      await container.queue.send(
        ARTICLE_QUEUE,
        stored.map((s) => ({
          key: s.id,
          data: { articleId: s.id, runId: run!.id, topicId: topic.id, url: s.canonicalUrl, source: 'Feed' },
        })),
      );
      for (;;) {
        if ((await progressOf(database.db, run!.id)).pending === 0) break;
        if (performance.now() - started > 300_000) throw new Error('workers did not finish in 5 min');
        await new Promise((r) => setTimeout(r, 50));
      }
      const seconds = (performance.now() - started) / 1000;
      const { completed } = await progressOf(database.db, run!.id);
      done.push({ seconds, completed, ids: stored.map((s) => s.id) });
    }
    // the logs are read to the end once the workers have exited: every round's analyses are in them
    const analysed = procs.map((p) => p.analysed);
    const codes = await Promise.all(procs.splice(0).map((p) => p.stop()));
    return { rounds: done, codes, analysed };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await container.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const scenarios: Scenario[] = [
  {
    name: 'pipeline.workers',
    async run(ctx): Promise<BenchResult[]> {
      if (!ctx.databaseUrl) return [];
      const n = ctx.quick ? 200 : 1000;
      const rounds = ctx.quick ? 2 : 3;
      const llm = await startLlmPeer();
      try {
        const out: BenchResult[] = [];
        const rates: Record<number, number> = {};
        for (const workers of [1, 2]) {
          const r = await timeWorkers(ctx, workers, n, rounds, llm.baseUrl);
          const analysed = r.analysed;
          const all = analysed.flat();
          const times = new Map<string, number>();
          for (const id of all) times.set(id, (times.get(id) ?? 0) + 1);
          // every article of every round analysed once, and nothing else
          const once =
            all.length === n * rounds &&
            r.rounds.every((round) => round.ids.every((id) => times.get(id) === 1));
          const o = roundsOf(
            r.rounds.map((round) => n / round.seconds),
            'figure',
            0,
          );
          rates[workers] = median(r.rounds.map((round) => n / round.seconds));
          out.push({
            scenario: `pipeline.workers_${workers}.postgres`,
            figure: o.median,
            unit: 'articles/s',
            budget: 'every article processed exactly once (counted from the workers\u2019 logs)',
            rounds: o,
            pass: once && r.rounds.every((round) => round.completed === n) && r.codes.every((c) => c === 0),
            notes:
              `${rounds} rounds of ${n} article jobs, ${workers} worker process(es): ${r.rounds.map((round) => round.seconds.toFixed(2)).join(' / ')} s; ` +
              `analyses per worker ${analysed.map((a) => a.length).join('/')}, distinct ${times.size}; ` +
              `exit codes ${r.codes.join('/')}`,
          });
        }
        out[1]!.notes += `; 2 workers / 1 worker = ${(rates[2]! / rates[1]!).toFixed(2)} (medians)`;
        return out;
      } finally {
        llm.stop();
      }
    },
  },
];
