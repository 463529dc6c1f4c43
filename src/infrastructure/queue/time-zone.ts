import { readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * luxon as cron-parser has it: cron-parser requires luxon's CommonJS build, and an `import` would
 * get its ES build, another instance with settings of its own
 */
const { Settings } = createRequire(import.meta.url)('luxon') as typeof import('luxon');

/** the names a system on UTC goes by (TZ, or the zone /etc/localtime links to) */
const UTC_NAMES = /^(?:Etc\/)?(?:UTC|UCT|Universal|Zulu|GMT|GMT0|GMT[+-]0|Greenwich)$/;

/** the zone the process's TZ or /etc/localtime names, as ICU and the C library find it; undefined when neither names one */
function namedZone(): string | undefined {
  if (process.env.TZ !== undefined) return process.env.TZ.replace(/^:/, '');
  try {
    return /zoneinfo\/(.+)$/.exec(readlinkSync('/etc/localtime'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * The time zone the job queue reads cron schedules in: the process's own. On a system on UTC (as
 * servers and containers mostly are) that is told by TZ or the /etc/localtime link without asking
 * ICU: the first `Intl.DateTimeFormat` of a process pages in ~5 MB of ICU's data (and keeps them,
 * measured on the idle service, docs/performance.md session 30). Elsewhere, Intl's answer.
 */
export function scheduleTimeZone(): string {
  const named = namedZone();
  if (named !== undefined && UTC_NAMES.test(named)) return 'UTC';
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * luxon, which cron-parser (and so pg-boss's scheduler) computes dates with, asks ICU for the
 * system's zone and locale on its first date. On a system on UTC both are known without it: the
 * zone is UTC, and the locale is read only by formatting for people, which cron arithmetic does not
 * do (and nothing else here formats with luxon). Elsewhere luxon asks as before.
 */
function settleLuxonDefaults(): void {
  if (scheduleTimeZone() !== 'UTC') return;
  Settings.defaultZone = 'utc';
  Settings.defaultLocale = 'en-US';
}
settleLuxonDefaults();
