import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compareRuns, formatComparison, parseBenchOutput, spreadOf } from '../../bench/compare.js';

// lines as `npm run bench` prints them (notes shortened), with npm's own chatter around them
const EARLIER = `
> article-intel@0.1.0 bench
> tsx bench/run.ts
{"scenario":"similar","figure":67.7,"unit":"ms","budget":"p99 <= 30 ms","pass":false,"notes":"rounds 5×200 articles asked for the first time, p99 spread 39–100 ms, p50 12 ms","node":"24.21.0"}
{"scenario":"reader.view","figure":20,"unit":"ms","budget":"p99 <= 20 ms","pass":true,"notes":"p99 spread 18.2–22.9 ms"}
{"scenario":"idle-rss","figure":207,"unit":"MB","budget":"<= 150 MB","pass":false}
not json {
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
      'similar: 67.7 ms → 21.4 ms (-68.4 %, beyond both spreads); FAIL → pass',
      'reader.view: 20 ms → 19 ms (-5.0 %, within the spreads); pass → pass',
      'idle-rss: 207 MB → 140 MB (-32.4 %); FAIL → pass',
      'search.pathological: – → 80 ms (new); pass',
    ]);
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
