import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  compareRuns,
  formatComparison,
  parseBenchOutput,
  parseBenchRun,
  spreadOf,
} from '../../bench/compare.js';

// lines as `npm run bench` prints them (notes shortened), with npm's own chatter around them
const EARLIER = `
> article-intel@0.1.0 bench
> tsx bench/run.ts
{"scenario":"similar","figure":67.7,"unit":"ms","budget":"p99 <= 30 ms","pass":false,"notes":"rounds 5×200 articles asked for the first time, p99 spread 39–100 ms, p50 12 ms","node":"24.21.0"}
{"scenario":"reader.view","figure":20,"unit":"ms","budget":"p99 <= 20 ms","pass":true,"notes":"p99 spread 18.2–22.9 ms"}
{"scenario":"idle-rss","figure":207,"unit":"MB","budget":"<= 150 MB","pass":false}
not json {
`;

// lines as `npm run bench` prints them now: a run line, then results with their rounds (NaN as null)
const CURRENT = `
{"run":{"date":"2026-11-27T09:00:00.000Z","commit":"abc1234","dirty":false,"node":"24.21.0","loadavg":[1.2,0.9,0.7],"cpus":2,"quick":false,"filter":null,"postgres":true,"redis":true}}
{"scenario":"similar","figure":21.4,"unit":"ms","budget":"p99 <= 30 ms","rounds":{"of":"figure","n":5,"min":20,"max":24,"median":21.4},"pass":true,"notes":"p99 spread 39–100 ms","node":"24.21.0","load":1.1}
{"scenario":"articles.view throughput","figure":9000,"unit":"req/s","floor":17000,"ratio":0.53,"budget":"ratio >= 0.5","rounds":{"of":"ratio","n":5,"min":0.46,"max":0.6,"median":0.53},"pass":true}
{"scenario":"dashboard","figure":592,"unit":"ms","budget":"<= 1000 ms","rounds":{"of":"figure","n":7,"min":480,"max":592,"median":504,"judged":"max"},"pass":true}
{"scenario":"ask.latency","figure":null,"unit":"","budget":"runs","rounds":{"of":"figure","n":0,"min":null,"max":null,"median":null},"pass":false,"notes":"skipped: set BENCH_DATABASE_URL"}
`;
const LATER = `
{"scenario":"similar","figure":26,"unit":"ms","budget":"p99 <= 30 ms","rounds":{"of":"figure","n":5,"min":25,"max":27,"median":26},"pass":true}
{"scenario":"articles.view throughput","figure":9100,"unit":"req/s","floor":16500,"ratio":0.55,"budget":"ratio >= 0.5","rounds":{"of":"ratio","n":5,"min":0.5,"max":0.58,"median":0.55},"pass":true}
{"scenario":"dashboard","figure":640,"unit":"ms","budget":"<= 1000 ms","rounds":{"of":"figure","n":7,"min":470,"max":640,"median":510,"judged":"max"},"pass":true}
{"scenario":"ask.latency","figure":1171,"unit":"ms p95","budget":"p95 < 10000 ms","rounds":{"of":"figure","n":3,"min":1145,"max":1361,"median":1171},"pass":true}
`;

describe('npm run bench -- --compare', () => {
  it('reads an earlier run, skipping what is not a result line', () => {
    const runs = parseBenchOutput(EARLIER);
    expect([...runs.keys()]).toEqual(['similar', 'reader.view', 'idle-rss']);
    expect(spreadOf(runs.get('similar')!)).toEqual([39, 100]);
    expect(spreadOf(runs.get('idle-rss')!)).toBeNull();
  });

  it('gives each scenario its change, says whether it is beyond the rounds’ spread, and marks new ones', () => {
    const now = [
      {
        scenario: 'similar',
        figure: 21.4,
        unit: 'ms',
        budget: 'p99 <= 30 ms',
        pass: true,
        notes: 'p99 spread 18–26.5 ms',
      },
      {
        scenario: 'reader.view',
        figure: 19,
        unit: 'ms',
        budget: 'p99 <= 20 ms',
        pass: true,
        notes: 'p99 spread 17.5–21 ms',
      },
      { scenario: 'idle-rss', figure: 140, unit: 'MB', budget: '<= 150 MB', pass: true },
      { scenario: 'search.pathological', figure: 80, unit: 'ms', budget: 'p99 <= 100 ms', pass: true },
    ];
    const lines = compareRuns(parseBenchOutput(EARLIER), now).map(formatComparison);
    expect(lines).toEqual([
      'similar: 67.7 ms [39–100] → 21.4 ms [18–26.5] (-68.4 %, beyond both spreads); FAIL → pass',
      'reader.view: 20 ms [18.2–22.9] → 19 ms [17.5–21] (-5.0 %, within the spreads); pass → pass',
      'idle-rss: 207 MB → 140 MB (-32.4 %); FAIL → pass',
      'search.pathological: – → 80 ms (new); pass',
    ]);
  });

  it('reads structured rounds, the run line, and the nulls a scenario that did not run prints', () => {
    const { run, results } = parseBenchRun(CURRENT);
    expect(run).toMatchObject({ commit: 'abc1234', node: '24.21.0', loadavg: [1.2, 0.9, 0.7] });
    expect(results.map((r) => r.scenario)).toEqual([
      'similar',
      'articles.view throughput',
      'dashboard',
      'ask.latency',
    ]);
    const skipped = results[3]!;
    expect(skipped.figure).toBeNaN();
    expect(skipped.rounds).toMatchObject({ of: 'figure', n: 0 });
    expect(skipped.rounds!.median).toBeNaN();
    expect(results[1]!.rounds).toEqual({ of: 'ratio', n: 5, min: 0.46, max: 0.6, median: 0.53 });
    expect(results[2]!.rounds!.judged).toBe('max');
  });

  it('compares the judged value of structured rounds, and their spreads rather than the notes', () => {
    const lines = compareRuns(parseBenchOutput(CURRENT), parseBenchRun(LATER).results).map(formatComparison);
    expect(lines).toEqual([
      // the notes' spread (39–100) is not used: the rounds say 20–24
      'similar: 21.4 ms [20–24, 5 rounds] → 26 ms [25–27, 5 rounds] (+21.5 %, beyond both spreads); pass → pass',
      // a ratio budget: the ratio is compared, not the figure (req/s)
      'articles.view throughput: ratio 0.53 [0.46–0.6, 5 rounds] → ratio 0.55 [0.5–0.58, 5 rounds] (+3.8 %, within the spreads); pass → pass',
      // judged on the worst round
      'dashboard: max 592 ms [480–592, 7 rounds] → max 640 ms [470–640, 7 rounds] (+8.1 %, within the spreads); pass → pass',
      'ask.latency: – → 1171 ms p95 [1145–1361, 3 rounds] (not run before); FAIL → pass',
    ]);
  });

  it('says nothing of spreads for one round, and marks a scenario that stopped running', () => {
    const before = parseBenchOutput(
      '{"scenario":"ask.quality","figure":100,"unit":"%","budget":">= 85 %","rounds":{"of":"figure","n":1,"min":100,"max":100,"median":100},"pass":true}',
    );
    const after = [
      {
        scenario: 'ask.quality',
        figure: 90,
        unit: '%',
        budget: '>= 85 %',
        rounds: { of: 'figure' as const, n: 1, min: 90, max: 90, median: 90 },
        pass: true,
      },
      {
        scenario: 'gone',
        figure: NaN,
        unit: '',
        budget: 'runs',
        rounds: { of: 'figure' as const, n: 0, min: NaN, max: NaN, median: NaN },
        pass: false,
      },
    ];
    const withGone = new Map([...before, ['gone', { ...after[0]!, scenario: 'gone' }]]);
    expect(compareRuns(withGone, after).map(formatComparison)).toEqual([
      'ask.quality: 100 % → 90 % (-10.0 %); pass → pass',
      'gone: 90 % → – (not run); pass → FAIL',
    ]);
  });

  it('reads an older output against a structured one: its ratio for a ratio budget, a notes spread only when it holds the value', () => {
    const older = parseBenchOutput(
      [
        '{"scenario":"pipeline.work_linking.postgres","figure":9.2,"unit":"% of the pipeline CPU","floor":1.2,"ratio":0.092,"budget":"<= 0.10","pass":true,"notes":"rounds\u2019 ratios spread 0.068–0.098"}',
        '{"scenario":"tags.table.name","figure":30,"unit":"ms p99","budget":"p99 <= 100 ms","pass":true,"notes":"rounds\u2019 ratios spread 0.068–0.098"}',
      ].join('\n'),
    );
    const now = [
      {
        scenario: 'pipeline.work_linking.postgres',
        figure: 8.1,
        unit: '% of the pipeline CPU',
        floor: 1.3,
        ratio: 0.081,
        budget: '<= 0.10',
        rounds: { of: 'ratio' as const, n: 5, min: 0.07, max: 0.09, median: 0.081 },
        pass: true,
      },
      {
        scenario: 'tags.table.name',
        figure: 20,
        unit: 'ms p99',
        budget: 'p99 <= 100 ms',
        rounds: { of: 'figure' as const, n: 3, min: 18, max: 22, median: 20 },
        pass: true,
      },
    ];
    const [linking, tags] = compareRuns(older, now);
    expect(linking!.before).toEqual({ value: 0.092, spread: [0.068, 0.098], n: null });
    expect(linking!.beyondSpread).toBe(false);
    // 0.068–0.098 is not a spread of 30 ms
    expect(tags!.before).toEqual({ value: 30, spread: null, n: null });
    expect(tags!.beyondSpread).toBeNull();
    expect(formatComparison(linking!)).toBe(
      'pipeline.work_linking.postgres: ratio 0.092 [0.068–0.098] → ratio 0.081 [0.07–0.09, 5 rounds] (-12.0 %, within the spreads); pass → pass',
    );
  });

  it('refuses --compare without a file, and a missing file, before any scenario runs', async () => {
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], {
        timeout: 60_000,
      }).then(
        () => 0,
        (err: { code?: number }) => err.code ?? -1,
      );
    expect(await run(['--compare'])).toBe(2);
    expect(await run(['no-such-scenario', '--compare', '/nonexistent/before.jsonl'])).not.toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'bench-compare-'));
    writeFileSync(join(dir, 'before.jsonl'), EARLIER);
    // a filter that matches no scenario: nothing runs, nothing to compare, no failure
    expect(await run(['--compare', join(dir, 'before.jsonl'), 'no-such-scenario'])).toBe(0);
  });
});
