/**
 * Rounds (bench/types.ts `Rounds`): how a scenario states the value its budget is judged on over
 * the rounds it ran, and the check `npm run bench` makes of every result line (its figure or ratio
 * is the judged statistic of its rounds).
 */
import type { BenchResult, Rounds } from './types.js';

/** the middle value, or the mean of the two middle ones */
export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const fixed = (x: number, digits: number) => Number(x.toFixed(digits));

/**
 * The rounds of the judged value (`of` a figure or a ratio), rounded to `digits` like the figure
 * the result prints, so that `figure` (or `ratio`) can be set to `.median` (or `.max`) exactly.
 */
export function roundsOf(
  values: readonly number[],
  of: Rounds['of'],
  digits = 2,
  judged: Rounds['judged'] = 'median',
): Rounds {
  if (!values.length) return notRun(of);
  const r: Rounds = {
    of,
    n: values.length,
    min: fixed(Math.min(...values), digits),
    max: fixed(Math.max(...values), digits),
    median: fixed(median(values), digits),
  };
  if (judged !== 'median') r.judged = judged;
  return r;
}

/** a count over a fixed, deterministic set: measured once, the same on every repetition */
export const once = (value: number, of: Rounds['of'] = 'figure'): Rounds => ({
  of,
  n: 1,
  min: value,
  max: value,
  median: value,
});

/** a scenario that did not run (skipped, or thrown): no rounds; NaN prints as null in JSON */
export const notRun = (of: Rounds['of'] = 'figure'): Rounds => ({
  of,
  n: 0,
  min: NaN,
  max: NaN,
  median: NaN,
});

/** the statistic the budget is decided on */
export const judgedValue = (r: Rounds): number => (r.judged === 'max' ? r.max : r.median);

/** "12.1–15.3 ms over 5 rounds" */
export function spreadText(r: Rounds, unit = ''): string {
  if (r.n === 0 || !Number.isFinite(r.min)) return 'not run';
  const u = unit ? ` ${unit}` : '';
  return `${r.min}–${r.max}${u} over ${r.n} round${r.n === 1 ? '' : 's'}`;
}

/**
 * What is wrong with a result's rounds, or null: `npm run bench` turns a result with a problem into
 * a failed one, so a scenario cannot print a figure its rounds do not give.
 */
export function roundsProblem(r: BenchResult): string | null {
  const o = r.rounds as Rounds | undefined;
  if (!o || typeof o !== 'object') return 'no rounds';
  if (o.of !== 'figure' && o.of !== 'ratio') return `rounds of "${String(o.of)}"`;
  if (!Number.isInteger(o.n) || o.n < 0) return `rounds n ${o.n}`;
  if (o.n === 0) return r.pass ? 'passes without a round' : null;
  if (![o.min, o.max, o.median].every(Number.isFinite)) return 'rounds min, max or median not a number';
  if (!(o.min <= o.median && o.median <= o.max))
    return `rounds not min ${o.min} <= median ${o.median} <= max ${o.max}`;
  const judged = judgedValue(o);
  const shown = o.of === 'ratio' ? r.ratio : r.figure;
  if (shown !== judged)
    return `${o.of} ${shown} is not the rounds' ${o.judged === 'max' ? 'max' : 'median'} ${judged}`;
  return null;
}
