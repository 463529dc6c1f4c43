import { describe, expect, it } from 'vitest';
import { feedProblemOf, isDue, nextFetchAt } from './catalog.js';

const at = (iso: string) => new Date(iso);

describe('due sources', () => {
  it('a source never read is due; then after its interval, less a small grace for schedule jitter', () => {
    expect(isDue({ lastFetchedAt: null, fetchIntervalMinutes: 60 }, at('2026-01-01T00:00:00Z'))).toBe(true);
    const hourly = { lastFetchedAt: at('2026-01-01T10:00:03Z'), fetchIntervalMinutes: 60 };
    expect(nextFetchAt(hourly)).toEqual(at('2026-01-01T11:00:03Z'));
    // the next hourly tick comes 3 s "early": still read (grace: 10% of the interval, at most 5 min)
    expect(isDue(hourly, at('2026-01-01T11:00:00Z'))).toBe(true);
    expect(isDue(hourly, at('2026-01-01T10:54:00Z'))).toBe(false);
    const weekly = { lastFetchedAt: at('2026-01-01T00:00:00Z'), fetchIntervalMinutes: 10_080 };
    expect(isDue(weekly, at('2026-01-07T23:54:00Z'))).toBe(false);
    expect(isDue(weekly, at('2026-01-07T23:56:00Z'))).toBe(true);
    const fast = { lastFetchedAt: at('2026-01-01T00:00:00Z'), fetchIntervalMinutes: 5 };
    expect(isDue(fast, at('2026-01-01T00:04:29Z'))).toBe(false);
    expect(isDue(fast, at('2026-01-01T00:04:30Z'))).toBe(true);
  });

  it('reads a problem off the reader errors, anything else is unknown', () => {
    const http = Object.assign(new Error('HTTP 404 from x'), { problem: 'http_status', status: 404 });
    expect(feedProblemOf(http)).toEqual({ code: 'http_status', message: 'HTTP 404 from x', httpStatus: 404 });
    const bad = Object.assign(new Error('malformed'), { problem: 'malformed', line: 7 });
    expect(feedProblemOf(bad)).toEqual({ code: 'malformed', message: 'malformed', line: 7 });
    expect(feedProblemOf(Object.assign(new Error('x'), { problem: 'made-up' })).code).toBe('unknown');
    expect(feedProblemOf('boom')).toEqual({ code: 'unknown', message: 'boom' });
  });
});
