/**
 * The value a budget is judged on, over the rounds a scenario ran (issue 30, item 8): on a shared
 * machine one measurement moves by ±15 % from one minute to the next, so a scenario repeats its
 * measured part and is judged on the median round, with the rounds' range beside it
 * (docs/performance.md, bench/rounds.ts).
 *
 * - `of` says which of the result's numbers the rounds are of: `'ratio'` when the budget is a ratio
 *   (then `ratio` equals the judged statistic), else `'figure'` (then `figure` equals it, in `unit`).
 * - `judged` is the statistic the budget is decided on: the median (the default) or, for a budget
 *   every round must meet, the worst round (`'max'`, of a figure where lower is better: `dashboard`,
 *   whose rounds are its navigations).
 * - A scenario that did not run (skipped for want of PostgreSQL, or thrown) reports `n: 0` and NaN
 *   (null in the JSON line); a figure that is a count over a fixed, deterministic set (ask.quality)
 *   reports `n: 1`, min = max = median.
 */
export interface Rounds {
  of: 'figure' | 'ratio';
  /** rounds measured (0: the scenario did not run) */
  n: number;
  min: number;
  max: number;
  median: number;
  /** absent: 'median' */
  judged?: 'median' | 'max';
}

/** One line of `npm run bench` output (docs/performance.md): a figure measured against a floor in the same run. */
export interface BenchResult {
  scenario: string;
  /** the measured figure, in `unit` */
  figure: number;
  unit: string;
  /** the reference measured in the same run (raw SQL, a bare route, one query...), when the budget is a ratio */
  floor?: number;
  ratio?: number;
  /** human-readable budget, e.g. "p99 <= 15 ms" or "ratio <= 1.3" */
  budget: string;
  /**
   * the judged value over the rounds (see `Rounds`): `figure` (or `ratio`, when the budget is a
   * ratio) equals its median (its max when `judged` is 'max'), and `pass` is decided on that
   */
  rounds: Rounds;
  pass: boolean;
  notes?: string;
}

export interface BenchContext {
  /** PostgreSQL URL when the run targets PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL) */
  databaseUrl?: string;
  redisUrl?: string;
  /** BENCH_QUICK=1 shrinks sizes for a smoke run */
  quick: boolean;
}

export interface Scenario {
  name: string;
  run(ctx: BenchContext): Promise<BenchResult[]>;
}
