/**
 * `npm run bench [name-filter]`: runs every scenario in bench/scenarios/*.bench.ts and prints one
 * JSON line per result. Exit code 1 when any budget fails.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { BenchContext, BenchResult, Scenario } from './types.js';

const dir = fileURLToPath(new URL('./scenarios', import.meta.url));
const filter = process.argv[2];
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
const failed = results.filter((r) => !r.pass);
console.error(`bench: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
