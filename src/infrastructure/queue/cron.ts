import { CronExpressionParser } from 'cron-parser';

import { scheduleTimeZone } from './time-zone.js';

export { scheduleTimeZone };

/**
 * The first tick of `cron` strictly after `from`, read as the queue's scheduler reads it (the same
 * library, cron-parser, in the same time zone); null for an expression it cannot read.
 */
export function nextCronTick(cron: string, from: Date, tz = scheduleTimeZone()): Date | null {
  try {
    return CronExpressionParser.parse(cron, { tz, strict: false, currentDate: from }).next().toDate();
  } catch {
    return null;
  }
}
