import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { END, NO_RUN, START, perfTable, withTable } from '../../bench/perf-table.js';

const FIXTURE = 'test/bench/fixtures/bench-output.jsonl';
const output = readFileSync(FIXTURE, 'utf8');

const EXPECTED = `From \`test/bench/fixtures/bench-output.jsonl\`: a full run on \`abc1234\`, started 2026-11-27T09:00:00.000Z, Node 24.21.0, load 1.2 / 0.9 / 0.7 (1 / 5 / 15 min) at its start on 2 cores; PostgreSQL set, Redis not set; 6 results. 3 pass, 3 fail. The value is the median of the rounds the scenario ran (of the ratio when the budget is a ratio), and pass is decided on it; the spread is the rounds’ min–max; load is the 1-minute load average when the result was printed.

| scenario | budget | value (median of rounds) | spread (min–max) | rounds | pass | load |
| --- | --- | --- | --- | --- | --- | --- |
| articles.list p99 at 1M (sort=citation_count, 20 rows) | p99 <= 15 ms | 7.03 ms | 6.8–7.9 | 3 | yes | 1.1 |
| articles.list API / raw SQL at 1M | ratio <= 1.3 | ratio 1.36 (3.28 / 2.41 ms (p50)) | 1.27–1.38 | 3 | **no** | 1.4 |
| articles.view throughput on Redis vs a bare Fastify route | runs | – | not run | 0 | **no**: skipped: set BENCH_DATABASE_URL and BENCH_REDIS_URL (or TEST_*) | 1.4 |
| ask.quality: unanswerable questions abstain | >= 8 of 10 | 10 of 10 | – | 1 | yes | 0.8 |
| dashboard | every panel filled <= 1000 ms after navigation (100 ms upstream) | 592 ms (worst round; median 504) | 480–592 | 7 | yes | 2 |
| tags.table | runs | – | not run | 0 | **no**: Error: GET /admin/tags answered 500 \\| after 3 tries | 2.5 |`;

const DOC = `# Performance

Intro.

## Current figures

${START}

${NO_RUN}

${END}

## Figures by session (hand-recorded)

| scenario | figure |
| --- | --- |
| similar | 9.05 ms |
`;

const script = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/gen-perf-table.ts', ...args], {
    timeout: 60_000,
  }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (err: { code?: number; stderr?: string }) => ({ code: err.code ?? -1, out: err.stderr ?? '' }),
  );

describe('npm run bench:table', () => {
  it('makes the table of a bench output: median, spread, rounds, pass and load of each result, the run above', () => {
    expect(perfTable(output, FIXTURE)).toBe(EXPECTED);
  });

  it('says so when no full run is recorded, and when an output has no run line', () => {
    expect(perfTable(null)).toBe(NO_RUN);
    const withoutRun = output.split('\n').slice(1).join('\n');
    expect(perfTable(withoutRun, 'x.jsonl')).toMatch(/^From `x.jsonl` \(an output without its run line/);
    // an output from before `rounds`: its figure, no spread
    const older = perfTable(
      '{"scenario":"idle-rss","figure":188,"unit":"MB","budget":"RSS <= 150 MB","pass":false}',
      'old.jsonl',
    );
    expect(older).toContain('| idle-rss | RSS <= 150 MB | 188 MB | – | – | **no** | – |');
  });

  it('replaces only what is between the markers, and refuses a document without them', () => {
    const next = withTable(DOC, perfTable(output, FIXTURE));
    expect(next.startsWith('# Performance\n\nIntro.\n\n## Current figures\n\n')).toBe(true);
    expect(next).toContain(`${START}\n\n${EXPECTED}\n\n${END}`);
    expect(next).not.toContain(NO_RUN);
    expect(
      next.endsWith(
        '## Figures by session (hand-recorded)\n\n| scenario | figure |\n| --- | --- |\n| similar | 9.05 ms |\n',
      ),
    ).toBe(true);
    expect(withTable(next, perfTable(output, FIXTURE))).toBe(next);
    expect(() => withTable('# Performance\n', NO_RUN)).toThrow(/markers/);
  });

  it('writes the document, and --check fails once the table is stale against the output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-table-'));
    const doc = join(dir, 'performance.md');
    const run = join(dir, 'run.jsonl');
    writeFileSync(doc, DOC);
    copyFileSync(FIXTURE, run);
    expect((await script([run, '--doc', doc, '--check'])).code).toBe(1);
    expect((await script([run, '--doc', doc])).code).toBe(0);
    expect(readFileSync(doc, 'utf8')).toContain('| dashboard | every panel filled');
    expect((await script([run, '--doc', doc, '--check'])).code).toBe(0);
    // a new run: the table is stale until written again
    writeFileSync(
      run,
      output
        .replace('"median":7.03},"pass":true', '"median":7.1},"pass":true')
        .replace('"figure":7.03', '"figure":7.1'),
    );
    const stale = await script([run, '--doc', doc, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.out).toMatch(/stale/);
    expect((await script([join(dir, 'missing.jsonl'), '--doc', doc])).code).toBe(1);
    writeFileSync(doc, '# Performance\n');
    expect((await script([run, '--doc', doc])).code).toBe(1);
  }, 120_000);

  it('the repository’s document is current against bench/last-run.jsonl (or says no run is recorded)', async () => {
    const r = await script(['--check']);
    expect(r.code, r.out).toBe(0);
  }, 60_000);
});
