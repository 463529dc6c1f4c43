/**
 * `npm run bench [name-filter] [--compare <earlier output>]`: runs every scenario in
 * bench/scenarios/*.bench.ts and prints one JSON line per result; with `--compare`, then one line per
 * scenario with its change against the earlier output (bench/compare.ts). Exit code 1 when any
 * budget fails.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { BenchContext, BenchResult, Scenario } from './types.js';

import { compareRuns, formatComparison, parseBenchOutput } from './compare.js';

const dir = fileURLToPath(new URL('./scenarios', import.meta.url));
const args = process.argv.slice(2);
const compareAt = args.indexOf('--compare');
const compareFile = compareAt >= 0 ? args[compareAt + 1] : undefined;
if (compareAt >= 0 && !compareFile) {
  console.error('bench: --compare needs the file of an earlier run (npm run bench > before.jsonl)');
  process.exit(2);
}
// read before any scenario runs: a wrong path fails at once, not after the whole bench
const earlier = compareFile ? parseBenchOutput(readFileSync(compareFile, 'utf8')) : undefined;
const filter = args.filter((_, i) => compareAt < 0 || (i !== compareAt && i !== compareAt + 1))[0];
const ctx: BenchContext = {
  databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL,
  redisUrl: process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL,
  quick: process.env.BENCH_QUICK === '1',
};

const results: BenchResult[] = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()) {
  const mod = (await import(join(dir, file))) as { scenarios: Scenario[] };
  for (const s of mod.scenarios) {
    if (filter && !s.name.includes(filter)) continue;
    try {
      for (const r of await s.run(ctx)) {
        results.push(r);
        console.log(JSON.stringify({ ...r, node: process.versions.node }));
      }
    } catch (err) {
      const r: BenchResult = {
        scenario: s.name,
        figure: NaN,
        unit: '',
        budget: 'runs',
        pass: false,
        notes: String(err),
      };
      results.push(r);
      console.log(JSON.stringify(r));
    }
  }
}
if (earlier) {
  console.error(`bench: against ${compareFile}`);
  for (const c of compareRuns(earlier, results)) console.error(formatComparison(c));
}
const failed = results.filter((r) => !r.pass);
console.error(`bench: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
