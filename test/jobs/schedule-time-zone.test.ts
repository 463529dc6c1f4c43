import { afterEach, describe, expect, it } from 'vitest';
import { nextCronTick, scheduleTimeZone } from '../../src/infrastructure/queue/cron.js';

/**
 * The zone the job queue reads cron schedules in: the process's own, told from TZ (or the
 * /etc/localtime link) without ICU when it names UTC, from Intl otherwise; and schedules computed in
 * it tick as in the zone Intl names.
 */
const saved = process.env.TZ;
afterEach(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

describe('the schedules’ time zone', () => {
  it.each(['UTC', 'Etc/UTC', ':UTC', 'Etc/Universal', 'Zulu', 'GMT', 'Etc/GMT0'])(
    'TZ=%s is UTC, told without Intl',
    (tz) => {
      process.env.TZ = tz;
      expect(scheduleTimeZone()).toBe('UTC');
      // the zone Intl would have named ticks at the same instants
      const from = new Date('2026-11-23T07:59:00Z');
      expect(nextCronTick('0 8 * * 1', from, scheduleTimeZone())).toEqual(
        nextCronTick('0 8 * * 1', from, Intl.DateTimeFormat().resolvedOptions().timeZone),
      );
    },
  );

  it.each(['Europe/Berlin', 'Asia/Taipei', 'America/New_York'])('TZ=%s is the zone Intl names', (tz) => {
    process.env.TZ = tz;
    expect(scheduleTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(scheduleTimeZone()).toBe(tz);
  });

  it('computes a tick in a named zone whatever the process runs in (Berlin in summer is UTC+2)', () => {
    expect(nextCronTick('0 8 * * *', new Date('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toEqual(
      new Date('2026-07-01T06:00:00Z'),
    );
    expect(nextCronTick('0 8 * * *', new Date('2026-07-01T00:00:00Z'), 'UTC')).toEqual(
      new Date('2026-07-01T08:00:00Z'),
    );
  });
});
