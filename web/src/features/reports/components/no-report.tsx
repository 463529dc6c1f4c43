import { useI18n } from '../../../lib/i18n';

/** The next Monday 08:00 UTC strictly after `now` (the weekly report schedule). */
export function nextReportDue(now: Date): Date {
  const due = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 8));
  due.setUTCDate(due.getUTCDate() + ((1 - due.getUTCDay() + 7) % 7));
  if (due <= now) due.setUTCDate(due.getUTCDate() + 7);
  return due;
}

/** No report yet for the topic: says when the next one is due instead of only "none". */
export function NoReport() {
  const { t, locale } = useI18n();
  const due = nextReportDue(new Date());
  const date = new Intl.DateTimeFormat(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(due);
  return (
    <div className="state state-empty" data-testid="no-report" data-due={due.toISOString()}>
      <p>{t('reports.none')}</p>
      <p>{t('reports.nextDue', { date })}</p>
    </div>
  );
}
