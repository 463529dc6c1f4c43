import { describe, expect, it } from 'vitest';
import { toUnixSeconds, withRangeDefaults } from './monitoring.service.js';
import { queryRefusal } from '../../infrastructure/monitor/http-monitor-upstream.js';

describe('range defaults', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const nowS = now.getTime() / 1000;

  it('reads seconds, milliseconds, nanoseconds and RFC 3339 alike', () => {
    for (const v of [nowS, nowS * 1e3, `${nowS * 1e9}`, '2026-11-24T12:00:00Z', `${nowS}`])
      expect(toUnixSeconds(v)).toBeCloseTo(nowS, 3);
    expect(toUnixSeconds(undefined)).toBeNull();
    expect(toUnixSeconds('yesterday')).toBeNull();
  });

  it('fills start, end and a step of about 250 points only where they are missing', () => {
    const q = withRangeDefaults('metrics', { query: 'up' }, now);
    expect(q).toMatchObject({ start: '2026-11-24T11:00:00.000Z', end: '2026-11-24T12:00:00.000Z', step: 15 });
    // a picked step (346 s) does not divide the day: start moves back so the last point is `end`
    const day = withRangeDefaults('metrics', { query: 'up', start: nowS - 86_400, end: nowS }, now);
    expect(day).toMatchObject({ start: '2026-11-23T11:58:20.000Z', end: nowS, step: 346 });
    expect(
      withRangeDefaults('metrics', { query: 'up', start: nowS - 86_400, end: nowS, step: 300 }, now).start,
    ).toBe(nowS - 86_400);
    expect(withRangeDefaults('metrics', { query: 'up', step: '1m' }, now).step).toBe('1m');
    expect(withRangeDefaults('logs', { query: '{job="x"}' }, now).step).toBeUndefined();
    expect(withRangeDefaults('traces', { q: '{}' }, now)).toMatchObject({ start: nowS - 3600, end: nowS });
  });
});

describe('a store refusing a query', () => {
  it('is explained in the store’s words: Prometheus JSON, Loki or Tempo text', () => {
    expect(
      queryRefusal(
        '{"status":"error","errorType":"bad_data","error":"1:10: parse error: unclosed left parenthesis"}',
      ),
    ).toBe('bad_data: 1:10: parse error: unclosed left parenthesis');
    expect(queryRefusal('parse error at line 1, col 5: syntax error: unexpected }\n')).toBe(
      'parse error at line 1, col 5: syntax error: unexpected }',
    );
    expect(queryRefusal('x\u0000y\u001b[31m'.repeat(200))!.length).toBeLessThanOrEqual(301);
    expect(queryRefusal('<!DOCTYPE html><html>gateway</html>')).toBeNull();
    expect(queryRefusal('{"unexpected":true}')).toBeNull();
  });
});
