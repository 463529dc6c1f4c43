import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createLogger } from '../../src/infrastructure/logging/logger.js';

/** Every line a request writes carries that request's correlation id, its first line included. */
describe('correlation id on every line of a request', () => {
  const lines: Record<string, unknown>[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const logger = createLogger({
      // request lines are written at debug (at info only the use cases' events are)
      level: 'debug',
      service: 'test',
      environment: 'local',
      destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    t = await buildTestApp({ logger });
  });
  afterAll(() => t.close());

  it('holds under concurrent requests, given ids and generated ones alike', async () => {
    const given = Array.from({ length: 20 }, (_, i) => `corr-${i}`);
    const answers = await Promise.all([
      ...given.map((id, i) =>
        t.app.inject({
          method: i % 2 ? 'GET' : 'POST',
          url: i % 2 ? '/articles?limit=1' : '/auth/login',
          headers: { 'x-correlation-id': id },
          // one account each: ten failures on one account would be spaced out (LoginThrottle)
          ...(i % 2 ? {} : { payload: { email: `nobody-${i}@example.test`, password: 'wrong-password' } }),
        }),
      ),
      ...Array.from({ length: 10 }, () => t.app.inject({ method: 'GET', url: '/topics' })),
    ]);
    const ids = answers.map((a) => String(a.headers['x-correlation-id']));
    expect(ids.slice(0, 20)).toEqual(given);
    const requestLines = lines.filter((l) => l.reqId !== undefined);
    for (const id of ids) {
      const own = requestLines.filter((l) => l.reqId === id);
      expect(own[0]?.msg).toBe('incoming request');
      expect(own.length).toBeGreaterThanOrEqual(2);
      expect(own.map((l) => l.correlation_id)).toEqual(own.map(() => id));
    }
    // the login failures logged by the use case carry the id of their own request
    const failures = lines.filter((l) => l.event === 'auth.login_failed');
    expect(failures).toHaveLength(10);
    expect(new Set(failures.map((l) => l.correlation_id))).toEqual(
      new Set(given.filter((_, i) => i % 2 === 0)),
    );
  });
});
