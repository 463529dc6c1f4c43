import { describe, expect, it } from 'vitest';
import { spreadWaiting } from '../helpers/duration-sequencer.js';

const file = (name: string, weight: number, waits = false) => ({ file: name, weight, waits });

/** the simulated run of `order` on `workers` workers: how many waiting files ran at once, at most */
function mostWaitingAtOnce(order: string[], plan: ReturnType<typeof file>[], workers: number): number {
  const byName = new Map(plan.map((p) => [p.file, p]));
  const running: { end: number; waits: boolean }[] = [];
  let now = 0;
  let most = 0;
  for (const name of order) {
    if (running.length >= workers) {
      running.sort((a, b) => a.end - b.end);
      now = running.shift()!.end;
    }
    const p = byName.get(name)!;
    running.push({ end: now + p.weight, waits: p.waits });
    most = Math.max(most, running.filter((r) => r.waits && r.end > now).length);
  }
  return most;
}

describe('the suite’s order spreads the files that mostly wait', () => {
  it('runs one waiting file at a time beside the working ones, each kind longest first', () => {
    const plan = [
      file('trace-flush', 50_000, true),
      file('prometheus', 30_000, true),
      file('console', 20_000, true),
      ...Array.from({ length: 12 }, (_, i) => file(`work-${i}`, 10_000 + i * 1000)),
    ];
    const order = spreadWaiting(plan, 3);
    expect([...order].sort()).toEqual(plan.map((p) => p.file).sort());
    // the longest waiting file first, then the longest working ones beside it
    expect(order.slice(0, 3)).toEqual(['trace-flush', 'work-11', 'work-10']);
    expect(order.indexOf('prometheus')).toBeGreaterThan(order.indexOf('work-9'));
    expect(mostWaitingAtOnce(order, plan, 3)).toBe(1);
    // longest first would have started all three together
    const longestFirst = [...plan].sort((a, b) => b.weight - a.weight).map((p) => p.file);
    expect(mostWaitingAtOnce(longestFirst, plan, 3)).toBe(3);
  });

  it('runs waiting files together once nothing else is left, and keeps longest first without any', () => {
    expect(spreadWaiting([file('a', 5, true), file('b', 9, true), file('c', 1)], 2)).toEqual(['b', 'c', 'a']);
    expect(spreadWaiting([file('a', 5), file('b', 9), file('c', 7)], 2)).toEqual(['b', 'c', 'a']);
  });
});
