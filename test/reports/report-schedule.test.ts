import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { scheduleTimeZone } from '../../src/infrastructure/queue/cron.js';

/** weekday, hour and minute of an instant in the time zone the schedules are read in */
const wallClock = (iso: string) => {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: scheduleTimeZone(),
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${part('weekday')} ${part('hour')}:${part('minute')}`;
};

describe('GET /weekly-reports/schedule: when the next weekly report is due', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const schedule = async (env: Record<string, string>) => {
    const t = await buildTestApp({ env });
    apps.push(t);
    // public: no session needed
    const res = await t.app.inject({ url: '/weekly-reports/schedule' });
    expect(res.statusCode).toBe(200);
    return res.json<{ next_due_at: string | null; cron: string | null }>();
  };
  const withinAWeek = (iso: string) => {
    const ms = new Date(iso).getTime() - Date.now();
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThanOrEqual(7 * 86_400_000);
  };

  it('the default schedule: the next Monday 08:00', async () => {
    const body = await schedule({ SCHEDULER_ENABLED: 'true' });
    expect(body.cron).toBe('0 8 * * 1');
    expect(wallClock(body.next_due_at!)).toBe('Monday 08:00');
    withinAWeek(body.next_due_at!);
  });

  it('a custom WEEKLY_REPORT_CRON is followed', async () => {
    const body = await schedule({ SCHEDULER_ENABLED: 'true', WEEKLY_REPORT_CRON: '30 6 * * 3' });
    expect(body.cron).toBe('30 6 * * 3');
    expect(wallClock(body.next_due_at!)).toBe('Wednesday 06:30');
    withinAWeek(body.next_due_at!);
  });

  it('with the scheduler off no report is due: nulls', async () => {
    const body = await schedule({ SCHEDULER_ENABLED: 'false', WEEKLY_REPORT_CRON: '30 6 * * 3' });
    expect(body).toEqual({ next_due_at: null, cron: null });
  });
});
