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
