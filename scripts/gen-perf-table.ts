/**
 * `npm run bench:table [bench output]`: writes docs/performance.md's current table from a bench
 * output (default bench/last-run.jsonl, which a full `npm run bench` writes), between the
 * `perf-table:start` and `perf-table:end` markers; without that file, a note that no full run is
 * recorded. `npm run bench:table:check` (`--check`) fails when the document differs, so a recorded
 * run cannot leave the table behind. `--doc <file>` writes another document (the tests' copy).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAST_RUN, perfTable, withTable } from '../bench/perf-table.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const docAt = args.indexOf('--doc');
if (docAt >= 0 && !args[docAt + 1]) {
  console.error('bench:table: --doc needs a file');
  process.exit(2);
}
const DOC = docAt >= 0 ? args[docAt + 1]! : join(ROOT, 'docs', 'performance.md');
const given = args.find((a, i) => !a.startsWith('--') && (docAt < 0 || i !== docAt + 1));
const source = given ?? join(ROOT, LAST_RUN);
if (given && !existsSync(given)) {
  console.error(`bench:table: ${given} does not exist`);
  process.exit(1);
}
const within = (file: string) => {
  const rel = relative(ROOT, resolve(file));
  return rel && !rel.startsWith('..') ? rel : file;
};
const label = given ? within(given) : LAST_RUN;
const output = existsSync(source) ? readFileSync(source, 'utf8') : null;

const text = readFileSync(DOC, 'utf8');
let next: string;
try {
  next = withTable(text, perfTable(output, label));
} catch (err) {
  console.error(`${DOC}: ${(err as Error).message}`);
  process.exit(1);
}
const name = within(DOC);
if (check) {
  if (next !== text) {
    console.error(`${name}: the current table is stale against ${label}; run \`npm run bench:table\``);
    process.exit(1);
  }
  process.stdout.write(`${name} current table matches ${label}\n`);
} else {
  writeFileSync(DOC, next);
  process.stdout.write(`${name} current table written from ${output === null ? 'no run' : label}\n`);
}
