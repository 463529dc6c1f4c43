/**
 * `npm run bench [name-filter] [--compare <earlier output>]`: runs every scenario in
 * bench/scenarios/*.bench.ts and prints one JSON line per result, after a first line saying what
 * ran where (`{"run": {date, commit, node, loadavg, ...}}`); with `--compare`, then one line per
 * scenario with its change against the earlier output (bench/compare.ts). Each scenario runs in a
 * process of its own (bench/isolate.ts), one after another. Every result states its
 * rounds (bench/types.ts `Rounds`); one whose figure is not its rounds' median is a failure. A full
 * run (no filter, not BENCH_QUICK) also writes its lines to bench/last-run.jsonl, the source of
 * docs/performance.md's current table (`npm run bench:table`). Exit code 1 when any budget fails.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { BenchContext, BenchResult, Scenario } from './types.js';

import { compareRuns, formatComparison, parseBenchOutput, type RunInfo } from './compare.js';
import { CHILD_FLAG, childMain, runInChild } from './isolate.js';
import { LAST_RUN } from './perf-table.js';
import { roundsProblem } from './rounds.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = fileURLToPath(new URL('./scenarios', import.meta.url));
/** this file: each scenario's process runs it with `--child` */
const script = fileURLToPath(import.meta.url);
/** the last full run's output, committed: docs/performance.md's current table is generated from it */
const lastRun = join(root, LAST_RUN);

const ctx: BenchContext = {
  databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  redisUrl: process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL,
  quick: process.env.BENCH_QUICK === '1',
};
const args = process.argv.slice(2);
// a scenario's own process (bench/isolate.ts): runs it, hands its results to the parent, exits
if (args[0] === CHILD_FLAG) await childMain(args[1]!, args[2]!, ctx);
const compareAt = args.indexOf('--compare');
const compareFile = compareAt >= 0 ? args[compareAt + 1] : undefined;
if (compareAt >= 0 && !compareFile) {
  console.error('bench: --compare needs the file of an earlier run (npm run bench > before.jsonl)');
  process.exit(2);
}
// read before any scenario runs: a wrong path fails at once, not after the whole bench
const earlier = compareFile ? parseBenchOutput(readFileSync(compareFile, 'utf8')) : undefined;
const filter = args.filter((_, i) => compareAt < 0 || (i !== compareAt && i !== compareAt + 1))[0];
const full = !filter && !ctx.quick;

const git = (...a: string[]): string | null => {
  try {
    return execFileSync('git', a, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
};
const status = git('status', '--porcelain', '--', '.', ':(exclude)bench/last-run.jsonl', ':(exclude)docs');
const run: RunInfo = {
  date: new Date().toISOString(),
  commit: git('rev-parse', '--short', 'HEAD'),
  dirty: status === null ? undefined : status !== '',
  node: process.versions.node,
  loadavg: loadavg().map((l) => Number(l.toFixed(2))),
  cpus: cpus().length,
  quick: ctx.quick,
  filter: filter ?? null,
  postgres: Boolean(ctx.databaseUrl),
  redis: Boolean(ctx.redisUrl),
};
const lines: string[] = [];
const print = (value: object) => {
  const line = JSON.stringify(value);
  lines.push(line);
  console.log(line);
};
print({ run });
/** a result as printed: with Node's version and the machine's load at that moment */
const printResult = (r: BenchResult) =>
  print({ ...r, node: process.versions.node, load: Number(loadavg()[0]!.toFixed(2)) });

const results: BenchResult[] = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()) {
  const mod = (await import(join(dir, file))) as { scenarios: Scenario[] };
  for (const s of mod.scenarios) {
    if (filter && !s.name.includes(filter)) continue;
    for (const r of await runInChild(script, join(dir, file), s.name)) {
      // a figure its rounds do not give is the bench's own bug: the line fails, saying why
      const problem = roundsProblem(r);
      const checked = problem
        ? { ...r, pass: false, notes: `bench error: ${problem}${r.notes ? `; ${r.notes}` : ''}` }
        : r;
      results.push(checked);
      printResult(checked);
    }
  }
}
if (full) {
  // whole or not at all: a run stopped halfway leaves the last full one in place
  writeFileSync(`${lastRun}.tmp`, `${lines.join('\n')}\n`);
  renameSync(`${lastRun}.tmp`, lastRun);
  console.error(`bench: wrote ${LAST_RUN}; \`npm run bench:table\` puts it in docs/performance.md`);
}
if (earlier) {
  console.error(`bench: against ${compareFile}`);
  for (const c of compareRuns(earlier, results)) console.error(formatComparison(c));
}
const failed = results.filter((r) => !r.pass);
console.error(`bench: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
