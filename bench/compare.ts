/**
 * `npm run bench -- --compare <earlier output>`: each scenario's figure against the same scenario
 * in an earlier run's output (the JSON lines `npm run bench` prints; other lines are ignored), as
 * one line per scenario: before, after, the change, and whether the change is larger than the
 * spread of the rounds either run reported (`p99 spread a–b ms` in its notes), which on a shared
 * machine is the only fair reading of a small change.
 */
import type { BenchResult } from './types.js';

/** the earlier run's results by scenario; a scenario printed twice keeps its last line */
export function parseBenchOutput(text: string): Map<string, BenchResult> {
  const out = new Map<string, BenchResult>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      continue;
    }
    if (!isResult(value)) continue;
    out.set(value.scenario, value);
  }
  return out;
}

const isResult = (v: unknown): v is BenchResult =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as BenchResult).scenario === 'string' &&
  typeof (v as BenchResult).figure === 'number';

/** the rounds' spread a scenario states in its notes ("spread 12.1–15.3 ms"), else null */
export function spreadOf(r: BenchResult): [number, number] | null {
  const m = /spread (-?[\d.]+)\s*[–-]\s*(-?[\d.]+)/.exec(r.notes ?? '');
  if (!m) return null;
  const lo = Number(m[1]);
  const hi = Number(m[2]);
  return Number.isFinite(lo) && Number.isFinite(hi) ? [Math.min(lo, hi), Math.max(lo, hi)] : null;
}

export interface Comparison {
  scenario: string;
  unit: string;
  before: number | null;
  after: number;
  /** (after - before) / before, or null when either figure is missing */
  change: number | null;
  /** the two runs' spreads do not overlap: the change is more than round-to-round noise */
  beyondSpread: boolean | null;
  passBefore: boolean | null;
  passAfter: boolean;
}

export function compareRuns(before: Map<string, BenchResult>, after: readonly BenchResult[]): Comparison[] {
  return after.map((a) => {
    const b = before.get(a.scenario);
    const usable = b !== undefined && Number.isFinite(b.figure) && Number.isFinite(a.figure);
    const sb = b ? spreadOf(b) : null;
    const sa = spreadOf(a);
    return {
      scenario: a.scenario,
      unit: a.unit,
      before: usable ? b.figure : null,
      after: a.figure,
      change: usable && b.figure !== 0 ? (a.figure - b.figure) / Math.abs(b.figure) : null,
      beyondSpread: sb && sa ? sa[0] > sb[1] || sa[1] < sb[0] : null,
      passBefore: b ? b.pass : null,
      passAfter: a.pass,
    };
  });
}

const fmt = (n: number | null, unit: string) =>
  n === null || !Number.isFinite(n) ? '–' : `${Math.round(n * 100) / 100}${unit ? ` ${unit}` : ''}`;

/** one human line per scenario */
export function formatComparison(c: Comparison): string {
  const change =
    c.change === null
      ? 'new'
      : `${c.change >= 0 ? '+' : ''}${(Math.round(c.change * 1000) / 10).toFixed(1)} %`;
  const noise =
    c.beyondSpread === null ? '' : c.beyondSpread ? ', beyond both spreads' : ', within the spreads';
  const verdict =
    c.passBefore === null
      ? c.passAfter
        ? 'pass'
        : 'FAIL'
      : `${c.passBefore ? 'pass' : 'FAIL'} → ${c.passAfter ? 'pass' : 'FAIL'}`;
  return `${c.scenario}: ${fmt(c.before, c.unit)} → ${fmt(c.after, c.unit)} (${change}${noise}); ${verdict}`;
}
