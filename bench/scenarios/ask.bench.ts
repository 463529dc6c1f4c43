/**
 * Ask the corpus (issue 27).
 *
 * ask.quality: the evaluation set (bench/fixtures/ask-eval/: 65 real articles, 52 answerable
 * questions of which 10 in zh-TW, 10 unanswerable) asked over server-sent events of the real api
 * role on PGlite, with a deterministic OpenAI-compatible peer that answers only from the passages
 * it is given. Prints the share of answerable questions whose answer cites the right article
 * (>= 85 %), the unanswerable ones that abstain (>= 8 of 10) and the citations that point outside
 * the passages retrieved for the question (0; measured with a peer that adds a sentence citing an
 * unlisted number to every answer). The extractive answer (no provider) is measured too, as notes.
 *
 * The quality figures are counts over the fixed evaluation set with a deterministic model: asked
 * again they give the same count, so they are one round each (bench/types.ts `Rounds`).
 *
 * ask.latency: POST /ask p95 < 10 s at 1M articles on PostgreSQL with a model that takes 1 second
 * per answer (the bench's large seed of synthetic articles, plus the evaluation set); the figure is
 * the median of the rounds' p95 (each round asks every question once).
 */
import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { createParser } from 'eventsource-parser';
import type { BenchContext, BenchResult, Scenario } from '../types.js';
import {
  loadNote,
  percentile,
  round2,
  scratchDatabase,
  startService,
  type Service,
} from '../perf/perf-support.js';
import { generateArticles, makeTopics } from '../articles/bench-db.js';
import { notRun, once, roundsOf } from '../rounds.js';
import { evalQuestions, loadEvalCorpus, type EvalQuestion } from '../support/ask-corpus.js';
import { openDatabase, type Database, seedDatabase } from '../../src/composition/bench-entry.js';
import { OpenAiPeer } from '../../test/peers/openai-peer.js';
import { passageModel } from '../../test/peers/ask-model.js';

const RIGHT_ARTICLE_MIN = 0.85;
const ABSTAIN_MIN = 8;
const P95_MAX_MS = 10_000;
const MODEL_DELAY_MS = 1000;

interface Answer {
  abstained: boolean;
  citations: { article_id: string }[];
}

/** POST /ask as server-sent events: the retrieved passages' articles and the final answer. */
function askStreamed(
  base: string,
  token: string,
  body: object,
): Promise<{ retrieved: Set<string>; answer: Answer }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    let retrieved = new Set<string>();
    let answer: Answer | null = null;
    const req = request(
      `${base}/ask`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const parser = createParser({
          onEvent: (e) => {
            if (e.event === 'retrieved')
              retrieved = new Set(
                (JSON.parse(e.data) as { passages: { article_id: string }[] }).passages.map(
                  (p) => p.article_id,
                ),
              );
            if (e.event === 'answer') answer = JSON.parse(e.data) as Answer;
            if (e.event === 'error') reject(new Error(e.data));
          },
        });
        res.setEncoding('utf8');
        res.on('data', (c: string) => parser.feed(c));
        res.on('end', () =>
          answer ? resolve({ retrieved, answer }) : reject(new Error(`no answer (HTTP ${res.statusCode})`)),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** POST /ask as JSON; ms until the whole answer is read */
function askTimed(base: string, token: string, body: object): Promise<number> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const t0 = performance.now();
    const req = request(
      `${base}/ask`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - t0)
            : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function signIn(service: Service): Promise<string> {
  const auth = service.container.services.auth;
  const email = `asker-${Date.now()}@bench.example.test`;
  await auth.ensureUser({ email, password: 'bench-password-123', role: 'user' });
  return (await auth.login({ email, password: 'bench-password-123' })).access_token;
}

async function addProvider(service: Service, baseUrl: string): Promise<void> {
  await service.container.services.catalog.createProvider({
    name: 'bench answers',
    type: 'text',
    base_url: baseUrl,
    model: 'deterministic',
    is_active: true,
  });
}

interface Tally {
  right: number;
  answerable: number;
  zhRight: number;
  zh: number;
  abstained: number;
  unanswerable: number;
  outside: number;
  wrongAbstain: number;
}

async function askAll(
  base: string,
  token: string,
  questions: EvalQuestion[],
  ids: Map<string, string>,
): Promise<Tally> {
  const t: Tally = {
    right: 0,
    answerable: 0,
    zhRight: 0,
    zh: 0,
    abstained: 0,
    unanswerable: 0,
    outside: 0,
    wrongAbstain: 0,
  };
  for (const q of questions) {
    const { retrieved, answer } = await askStreamed(base, token, { question: q.question });
    t.outside += answer.citations.filter((c) => !retrieved.has(c.article_id)).length;
    if (q.answer_key === null) {
      t.unanswerable++;
      if (answer.abstained) t.abstained++;
      continue;
    }
    const right = answer.citations.some((c) => c.article_id === ids.get(q.answer_key!));
    t.answerable++;
    if (right) t.right++;
    if (answer.abstained) t.wrongAbstain++;
    if (q.language === 'zh-TW') {
      t.zh++;
      if (right) t.zhRight++;
    }
  }
  return t;
}

const pct = (a: number, b: number) => round2((100 * a) / Math.max(1, b));

async function quality(): Promise<BenchResult[]> {
  const database = await openDatabase({ dataDir: 'memory://' });
  await seedDatabase(database.db);
  const honest = await new OpenAiPeer(passageModel()).start();
  const service = await startService(database, undefined, { RATE_LIMIT_ASK_PER_MINUTE: '0' });
  try {
    const { ids } = await loadEvalCorpus(database.db);
    const token = await signIn(service);
    const questions = evalQuestions();
    // without a provider first: the extractive answer
    const extractive = await askAll(service.base, token, questions, ids);
    await addProvider(service, honest.baseUrl);
    const model = await askAll(service.base, token, questions, ids);
    // a model that cites an unlisted passage in every answer
    honest.chat = passageModel({ stray: true });
    const stray = await askAll(service.base, token, questions, ids);
    const share = model.right / model.answerable;
    const right = pct(model.right, model.answerable);
    const outside = model.outside + stray.outside + extractive.outside;
    const notes =
      `${questions.length} questions over 65 articles; zh-TW right ${model.zhRight}/${model.zh}; ` +
      `answerable that abstained ${model.wrongAbstain}; with a stray citation in every answer: right ${pct(stray.right, stray.answerable)} %, ` +
      `outside ${stray.outside}; extractive (no model): right ${pct(extractive.right, extractive.answerable)} %, ` +
      `unanswerable abstained ${extractive.abstained}/${extractive.unanswerable}, outside ${extractive.outside}`;
    return [
      {
        scenario: 'ask.quality: right article cited',
        figure: right,
        unit: `% of ${model.answerable} answerable questions`,
        budget: `>= ${RIGHT_ARTICLE_MIN * 100} %`,
        rounds: once(right),
        pass: share >= RIGHT_ARTICLE_MIN,
        notes,
      },
      {
        scenario: 'ask.quality: unanswerable questions abstain',
        figure: model.abstained,
        unit: `of ${model.unanswerable}`,
        budget: `>= ${ABSTAIN_MIN} of 10`,
        rounds: once(model.abstained),
        pass: model.abstained >= ABSTAIN_MIN,
      },
      {
        scenario: 'ask.quality: citations outside the retrieved passages',
        figure: outside,
        unit: 'citations',
        budget: '0 (honest model, stray-citing model and extractive answers together)',
        rounds: once(outside),
        pass: outside === 0,
      },
    ];
  } finally {
    await service.close();
    await honest.stop();
    await database.close();
  }
}

async function latency(ctx: BenchContext): Promise<BenchResult[]> {
  if (!ctx.databaseUrl)
    return [
      {
        scenario: 'ask.latency',
        figure: NaN,
        unit: '',
        budget: 'runs',
        rounds: notRun(),
        pass: false,
        notes: 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL',
      },
    ];
  const size = ctx.quick ? 100_000 : 1_000_000;
  const rounds = ctx.quick ? 2 : 3;
  const scratch = await scratchDatabase(ctx.databaseUrl, 'ask');
  const slow = await new OpenAiPeer(async (call) => {
    await new Promise((r) => setTimeout(r, MODEL_DELAY_MS));
    return passageModel()(call);
  }).start();
  let service: Service | null = null;
  try {
    const t0 = Date.now();
    const topics = await makeTopics(scratch.database as Database, 10);
    await generateArticles(scratch.database as Database, 1, size, topics);
    const { ids } = await loadEvalCorpus(scratch.database.db);
    await scratch.database.db.execute(sql`vacuum analyze articles`);
    const build = Math.round((Date.now() - t0) / 1000);
    service = await startService(scratch.database, scratch.url, { RATE_LIMIT_ASK_PER_MINUTE: '0' });
    await addProvider(service, slow.baseUrl);
    const token = await signIn(service);
    const questions = evalQuestions();
    const p95s: number[] = [];
    const all: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const times: number[] = [];
      for (const q of questions) times.push(await askTimed(service.base, token, { question: q.question }));
      p95s.push(percentile(times, 95));
      all.push(...times);
    }
    const o = roundsOf(p95s, 'figure');
    return [
      {
        scenario: `ask.latency (PostgreSQL, ${size + ids.size} articles, ${MODEL_DELAY_MS} ms model)`,
        figure: o.median,
        unit: 'ms p95',
        budget: `p95 < ${P95_MAX_MS} ms`,
        rounds: o,
        pass: o.median < P95_MAX_MS,
        notes: `rounds ${rounds}×${questions.length} questions, p95 spread ${o.min}–${o.max} ms, p50 ${round2(percentile(all, 50))} ms, max ${round2(Math.max(...all))} ms; build ${build} s; ${await loadNote()}`,
      },
    ];
  } finally {
    await service?.close();
    await slow.stop();
    await scratch.drop();
  }
}

export const scenarios: Scenario[] = [
  { name: 'ask.quality', run: () => quality() },
  { name: 'ask.latency', run: latency },
];
