import { describe, expect, it } from 'vitest';
import { judgedValue, median, notRun, once, roundsOf, roundsProblem } from '../../bench/rounds.js';
import type { BenchResult } from '../../bench/types.js';

const result = (over: Partial<BenchResult>): BenchResult => ({
  scenario: 's',
  figure: 12.5,
  unit: 'ms',
  budget: 'p99 <= 20 ms',
  rounds: { of: 'figure', n: 3, min: 10, max: 14, median: 12.5 },
  pass: true,
  ...over,
});

describe('bench rounds', () => {
  it('takes the median (the mean of the two middle values for an even count) and the range, rounded like the figure', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    expect(roundsOf([12.345, 9.8765, 15.1], 'figure')).toEqual({
      of: 'figure',
      n: 3,
      min: 9.88,
      max: 15.1,
      median: 12.35,
    });
    expect(roundsOf([0.5234, 0.4611], 'ratio', 3)).toEqual({
      of: 'ratio',
      n: 2,
      min: 0.461,
      max: 0.523,
      median: 0.492,
    });
    const worst = roundsOf([504, 480, 592.4], 'figure', 0, 'max');
    expect(worst).toMatchObject({ judged: 'max', max: 592, median: 504 });
    expect(judgedValue(worst)).toBe(592);
    expect(once(10)).toEqual({ of: 'figure', n: 1, min: 10, max: 10, median: 10 });
    expect(roundsOf([], 'figure')).toMatchObject({ n: 0 });
  });

  it('prints NaN as null, which a JSON line can hold', () => {
    expect(JSON.parse(JSON.stringify(notRun()))).toEqual({
      of: 'figure',
      n: 0,
      min: null,
      max: null,
      median: null,
    });
  });

  it('finds a figure or ratio that is not the judged statistic of its rounds', () => {
    expect(roundsProblem(result({}))).toBeNull();
    expect(roundsProblem(result({ figure: 12.6 }))).toMatch(/figure 12.6 is not the rounds' median 12.5/);
    expect(
      roundsProblem(result({ ratio: 1.2, rounds: { of: 'ratio', n: 5, min: 1.1, max: 1.3, median: 1.2 } })),
    ).toBeNull();
    expect(
      roundsProblem(result({ ratio: 1.25, rounds: { of: 'ratio', n: 5, min: 1.1, max: 1.3, median: 1.2 } })),
    ).toMatch(/ratio 1.25/);
    expect(
      roundsProblem(
        result({ figure: 14, rounds: { of: 'figure', n: 3, min: 10, max: 14, median: 12, judged: 'max' } }),
      ),
    ).toBeNull();
    expect(roundsProblem(result({ rounds: { of: 'figure', n: 3, min: 13, max: 14, median: 12.5 } }))).toMatch(
      /not min/,
    );
    expect(roundsProblem(result({ figure: NaN, pass: false, rounds: notRun() }))).toBeNull();
    expect(roundsProblem(result({ figure: NaN, pass: true, rounds: notRun() }))).toMatch(/without a round/);
    expect(roundsProblem({ ...result({}), rounds: undefined } as unknown as BenchResult)).toBe('no rounds');
  });
});
