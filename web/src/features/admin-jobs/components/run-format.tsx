import type { RunKind, RunStatus, RunSummary } from '../api/jobs';
import { useJobsText, type JobsKey } from '../messages';

/** seconds as "12 s", "3 min 4 s", "1 h 2 min" */
export function useDuration() {
  const { t } = useJobsText();
  return (ms: number) => {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return t('jobs.sec', { n: s });
    if (s < 3600) return t('jobs.min', { m: Math.floor(s / 60), s: s % 60 });
    return t('jobs.hour', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  };
}

export const runMs = (r: RunSummary, now = Date.now()) =>
  (r.finished_at ? Date.parse(r.finished_at) : now) - Date.parse(r.started_at);

export function formatTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function StatusBadge({ status }: { status: RunStatus }) {
  const { t } = useJobsText();
  return (
    <span className={`run-status run-status-${status}`} data-status={status}>
      {t(`jobs.status.${status}` as JobsKey)}
    </span>
  );
}

export function KindName({ kind }: { kind: RunKind }) {
  const { t } = useJobsText();
  return <>{t(`jobs.kind.${kind}` as JobsKey)}</>;
}

/** the order fields are shown in (the stored summary is a JSON object without an order) */
const FIELD_ORDER = [
  'week_start',
  'topics',
  'created',
  'existing',
  'skipped',
  'articles',
  'updated',
  'unchanged',
  'sources',
  'sources_not_modified',
  'sources_failed',
  'discovered',
  'fetched',
  'fetch_failed',
  'duplicates',
  'published',
  'processed',
  'analyzed',
  'tagged',
  'translated',
  'completed',
  'processing_failed',
  'failed',
];
const rank = (k: string) => {
  const i = FIELD_ORDER.indexOf(k);
  return i >= 0 ? i : k.startsWith('from_') ? (k === 'from_none' ? 1001 : 1000) : 2000;
};

/** the summary's fields as labelled numbers, in the page's language */
export function useSummaryFields() {
  const { t, has, locale } = useJobsText();
  const number = new Intl.NumberFormat(locale);
  return (summary: RunSummary['summary']): { label: string; value: string }[] =>
    Object.entries(summary)
      .filter(([, v]) => v !== null)
      .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
      .map(([k, v]) => {
        const key = `jobs.field.${k}`;
        const label = k.startsWith('from_')
          ? k === 'from_none'
            ? t('jobs.field.fromNone')
            : t('jobs.field.from', { source: k.slice(5).replaceAll('_', ' ') })
          : has(key)
            ? t(key)
            : k.replaceAll('_', ' ');
        return { label, value: typeof v === 'number' ? number.format(v) : String(v) };
      });
}

export function ProgressBar({ run }: { run: RunSummary }) {
  const { t } = useJobsText();
  const { done, total } = run.progress;
  const known = total > 0;
  return (
    <div className="run-progress">
      <progress
        max={known ? total : undefined}
        value={known ? Math.min(done, total) : undefined}
        aria-label={t(`jobs.kind.${run.kind}` as JobsKey)}
      />
      <span className="run-progress-text">
        {known ? t('jobs.progress', { done, total }) : t('jobs.progressUnknown')}
      </span>
    </div>
  );
}
