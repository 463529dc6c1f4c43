import { describe, expect, it } from 'vitest';
import {
  citationSet,
  isIsoDate,
  mondayOf,
  normalizeCitations,
  previousWeekStart,
  sameCitations,
  weekLabel,
  weekWindow,
} from './reports.js';

describe('weeks', () => {
  it('finds the Monday of any instant (UTC)', () => {
    expect(mondayOf(new Date('2026-11-09T00:00:00Z'))).toBe('2026-11-09');
    expect(mondayOf(new Date('2026-11-15T23:59:59Z'))).toBe('2026-11-09');
    expect(mondayOf(new Date('2026-01-01T12:00:00Z'))).toBe('2025-12-29');
  });
  it('reports on the last full week when the cron fires on Monday 08:00', () => {
    expect(previousWeekStart(new Date('2026-11-16T08:00:00Z'))).toBe('2026-11-09');
    const w = weekWindow('2026-11-09');
    expect([w.from.toISOString(), w.to.toISOString()]).toEqual([
      '2026-11-09T00:00:00.000Z',
      '2026-11-16T00:00:00.000Z',
    ]);
  });
  it('validates calendar dates and labels weeks per locale', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('26-2-3')).toBe(false);
    expect(weekLabel('2026-11-09')).toBe('Week of Nov 9, 2026');
    expect(weekLabel('2026-11-09', 'zh-TW')).toBe('2026年11月9日當週');
  });
});

describe('citations', () => {
  it('removes markers outside 1..N and renumbers by first citation', () => {
    const r = normalizeCitations('B first [2], then A and C [1, 3], none [0] or [7]. Again [2].', 4);
    expect(r.text).toBe('B first [1], then A and C [2][3], none or. Again [1].');
    // cited inputs in citation order, then the uncited one
    expect(r.order).toEqual([1, 0, 2, 3]);
  });
  it('keeps a text without markers and lists every input', () => {
    expect(normalizeCitations('No citations.', 2)).toEqual({ text: 'No citations.', order: [0, 1] });
  });
  it('compares marker sets, not positions or counts', () => {
    expect(citationSet('a [2] b [1] c [2]')).toEqual([1, 2]);
    expect(sameCitations('x [1] y [2]', '[2] 甲 [1] 乙 [1]')).toBe(true);
    expect(sameCitations('x [1] y [2]', 'x [1] y')).toBe(false);
    expect(sameCitations('x [1]', 'x [1] [3]')).toBe(false);
  });
});
