/**
 * `npm run bench -- --compare <earlier output>`: each scenario's judged value against the same
 * scenario in an earlier run's output (the JSON lines `npm run bench` prints; other lines are
 * ignored), as one line per scenario: before and after with the rounds' range of each, the change,
 * and whether the change is larger than the spread of the rounds either run reported, which on a
 * shared machine is the only fair reading of a small change.
 *
 * The judged value and its spread come from a result's `rounds` (bench/types.ts): the median (or
 * the max, for `judged: 'max'`) of the figure, or of the ratio when the budget is a ratio, and the
 * rounds' min–max. Outputs from before `rounds` existed give their figure (their ratio when the
 * other run's rounds are of a ratio) and the spread their notes state ("p99 spread 12.1–15.3 ms"),
 * when that range holds the value (a range of something else is not its spread).
 */
import { judgedValue } from './rounds.js';
import type { BenchResult, Rounds } from './types.js';

/** a result line as read back: older outputs have no `rounds`, and NaN came back as null */
export type ReadResult = Omit<BenchResult, 'rounds'> & {
  rounds?: Rounds;
  /** Node's version, printed on every line */
  node?: string;
  /** the machine's 1-minute load average when the line was printed */
  load?: number;
};

/** the first line of a run (bench/run.ts): when, on what tree and machine, with what */
export interface RunInfo {
  /** ISO time the run started */
  date?: string;
  /** `git rev-parse --short HEAD`, null outside a git checkout */
  commit?: string | null;
  /** the tree had changes not committed (bench/last-run.jsonl aside) */
  dirty?: boolean;
  node?: string;
  /** os.loadavg() when the run started */
  loadavg?: number[];
  cpus?: number;
  quick?: boolean;
  /** the name filter, null for a full run */
  filter?: string | null;
  /** whether PostgreSQL and Redis scenarios had a server (never the URLs) */
  postgres?: boolean;
  redis?: boolean;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function readRounds(v: unknown): Rounds | undefined {
  if (!isObject(v) || typeof v.n !== 'number') return undefined;
  const r: Rounds = {
    of: v.of === 'ratio' ? 'ratio' : 'figure',
    n: v.n,
    min: num(v.min),
    max: num(v.max),
    median: num(v.median),
  };
  if (v.judged === 'max') r.judged = 'max';
  return r;
}

function readResult(v: unknown): ReadResult | null {
  if (!isObject(v) || typeof v.scenario !== 'string') return null;
  // NaN (a scenario that did not run) is printed as null
  if (typeof v.figure !== 'number' && v.figure !== null) return null;
  const out = { ...v, figure: num(v.figure) } as ReadResult;
  if (v.ratio === null) out.ratio = NaN;
  if (v.floor === null) out.floor = NaN;
  const rounds = readRounds(v.rounds);
  if (rounds) out.rounds = rounds;
  else delete out.rounds;
  return out;
}

/** every result line of an output, in order, and its run line when it has one */
export function parseBenchRun(text: string): { run: RunInfo | null; results: ReadResult[] } {
  let run: RunInfo | null = null;
  const results: ReadResult[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue;
    }
    if (isObject(value) && isObject(value.run) && !('scenario' in value)) {
      run ??= value.run as RunInfo;
      continue;
    }
    const r = readResult(value);
    if (r) results.push(r);
  }
  return { run, results };
}

/** the earlier run's results by scenario; a scenario printed twice keeps its last line */
export function parseBenchOutput(text: string): Map<string, ReadResult> {
  return new Map(parseBenchRun(text).results.map((r) => [r.scenario, r]));
}

/** the rounds' spread a scenario states in its notes ("spread 12.1–15.3 ms"), else null */
export function spreadOf(r: { notes?: string }): [number, number] | null {
  const m = /spread (-?[\d.]+)\s*[–-]\s*(-?[\d.]+)/.exec(r.notes ?? '');
  if (!m) return null;
  const lo = Number(m[1]);
  const hi = Number(m[2]);
  return Number.isFinite(lo) && Number.isFinite(hi) ? [Math.min(lo, hi), Math.max(lo, hi)] : null;
}

/** one run's side of a comparison */
export interface Side {
  /** the judged value; null when the scenario did not run */
  value: number | null;
  /** the rounds' min–max (two rounds or more), or the spread an older output's notes state */
  spread: [number, number] | null;
  /** rounds measured; null for an older output without `rounds` */
  n: number | null;
}

export interface Comparison {
  scenario: string;
  /** what the values are: the figure in `unit`, or the ratio to the floor */
  of: Rounds['of'];
  unit: string;
  judged: 'median' | 'max';
  before: Side | null;
  after: Side;
  /** (after - before) / before, or null when either value is missing */
  change: number | null;
  /** the two runs' spreads do not overlap: the change is more than round-to-round noise */
  beyondSpread: boolean | null;
  passBefore: boolean | null;
  passAfter: boolean;
}

const finite = (x: number | undefined): number | null => (x !== undefined && Number.isFinite(x) ? x : null);

/** `r`'s side; `of` is the quantity the other run's rounds are of, for an older output */
function sideOf(r: ReadResult, of: Rounds['of']): Side {
  if (r.rounds) {
    const o = r.rounds;
    const spread: [number, number] | null =
      o.n >= 2 && Number.isFinite(o.min) && Number.isFinite(o.max) ? [o.min, o.max] : null;
    return { value: finite(judgedValue(o)), spread, n: o.n };
  }
  const value = of === 'ratio' ? (finite(r.ratio) ?? finite(r.figure)) : finite(r.figure);
  const s = spreadOf(r);
  return { value, spread: s && value !== null && s[0] <= value && value <= s[1] ? s : null, n: null };
}

export function compareRuns(
  before: Map<string, ReadResult>,
  after: readonly (ReadResult | BenchResult)[],
): Comparison[] {
  return after.map((a) => {
    const b = before.get(a.scenario);
    const of = a.rounds?.of ?? b?.rounds?.of ?? 'figure';
    const sa = sideOf(a, of);
    const sb = b ? sideOf(b, of) : null;
    const usable = sb?.value != null && sa.value !== null;
    return {
      scenario: a.scenario,
      of,
      // a scenario that did not run prints no unit
      unit: a.unit || (b?.unit ?? ''),
      judged: a.rounds?.judged ?? 'median',
      before: sb,
      after: sa,
      change: usable && sb.value !== 0 ? (sa.value! - sb.value!) / Math.abs(sb.value!) : null,
      beyondSpread:
        sb?.spread && sa.spread ? sa.spread[0] > sb.spread[1] || sa.spread[1] < sb.spread[0] : null,
      passBefore: b ? b.pass : null,
      passAfter: a.pass,
    };
  });
}

const num2 = (n: number) => `${Math.round(n * 1000) / 1000}`;

function fmtSide(s: Side | null, c: Comparison): string {
  if (!s || s.value === null) return '–';
  const what = c.of === 'ratio' ? `ratio ${num2(s.value)}` : `${num2(s.value)}${c.unit ? ` ${c.unit}` : ''}`;
  const spread = s.spread
    ? ` [${num2(s.spread[0])}–${num2(s.spread[1])}${s.n ? `, ${s.n} rounds` : ''}]`
    : '';
  return `${c.judged === 'max' ? 'max ' : ''}${what}${spread}`;
}

/** one human line per scenario */
export function formatComparison(c: Comparison): string {
  const change =
    c.change !== null
      ? `${c.change >= 0 ? '+' : ''}${(Math.round(c.change * 1000) / 10).toFixed(1)} %`
      : c.before === null
        ? 'new'
        : c.before.value === null
          ? 'not run before'
          : c.after.value === null
            ? 'not run'
            : 'from 0';
  const noise =
    c.beyondSpread === null ? '' : c.beyondSpread ? ', beyond both spreads' : ', within the spreads';
  const verdict =
    c.passBefore === null
      ? c.passAfter
        ? 'pass'
        : 'FAIL'
      : `${c.passBefore ? 'pass' : 'FAIL'} → ${c.passAfter ? 'pass' : 'FAIL'}`;
  return `${c.scenario}: ${fmtSide(c.before, c)} → ${fmtSide(c.after, c)} (${change}${noise}); ${verdict}`;
}
