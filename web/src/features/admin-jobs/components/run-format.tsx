import { useEffect, useState } from 'react';
import type { RunKind, RunStatus, RunSummary } from '../api/jobs';
import { useT } from '../../../lib/i18n';
import { jobsMessages, type JobsKey } from '../messages';

/** seconds as "12 s", "3 min 4 s", "1 h 2 min" */
export function useDuration() {
  const { t } = useT(jobsMessages);
  return (ms: number) => {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return t('jobs.sec', { n: s });
    if (s < 3600) return t('jobs.min', { m: Math.floor(s / 60), s: s % 60 });
    return t('jobs.hour', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  };
}

export const runMs = (r: RunSummary, now = Date.now()) =>
  (r.finished_at ? Date.parse(r.finished_at) : now) - Date.parse(r.started_at);

/**
 * The time now, again every second while `ticking`: the elapsed time of a run under way counts up
 * between two polls of its record instead of standing still.
 */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

export function formatTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function StatusBadge({ status }: { status: RunStatus }) {
  const { t } = useT(jobsMessages);
  return (
    <span className={`run-status run-status-${status}`} data-status={status}>
      {t(`jobs.status.${status}` as JobsKey)}
    </span>
  );
}

export function KindName({ kind }: { kind: RunKind }) {
  const { t } = useT(jobsMessages);
  return <>{t(`jobs.kind.${kind}` as JobsKey)}</>;
}

/**
 * The order fields are shown in (the stored summary is a JSON object without an order): what
 * matters first, the new articles, reports and values, then what failed, then the rest.
 */
const FIELD_ORDER = [
  'published',
  'created',
  'updated',
  'processing_failed',
  'sources_failed',
  'fetch_failed',
  'failed',
  'week_start',
  'topics',
  'existing',
  'skipped',
  'articles',
  'unchanged',
  'sources',
  'sources_not_modified',
  'discovered',
  'fetched',
  'fetch_refused',
  'invalid',
  'duplicates',
  'duplicates_url',
  'duplicates_doi',
  'duplicates_arxiv_id',
  'duplicates_title',
  'enriched',
  'topic_links',
  'refused',
  'processed',
  'analyzed',
  'tagged',
  'translated',
  'completed',
  'analysis_failed',
  'tag_normalization_failed',
  'translation_failed',
];
/** fields that count failures: shown as such (and only when there are any, for the short form) */
export const FAILURE_KEYS = new Set(['processing_failed', 'sources_failed', 'fetch_failed', 'failed']);
const rank = (k: string) => {
  const i = FIELD_ORDER.indexOf(k);
  return i >= 0 ? i : k.startsWith('from_') ? (k === 'from_none' ? 1001 : 1000) : 2000;
};

/** the summary's fields as labelled numbers, in the page's language */
export function useSummaryFields() {
  const { t, has, locale } = useT(jobsMessages);
  const number = new Intl.NumberFormat(locale);
  return (
    summary: RunSummary['summary'],
    kind?: RunKind,
  ): { key: string; label: string; value: string; failure: boolean }[] =>
    Object.entries(summary)
      .filter(([, v]) => v !== null)
      .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
      .map(([k, v]) => {
        // a count named for what it counts in this kind of run ("failed": articles or topics)
        const own = `jobs.field.${kind}.${k}`;
        const key = `jobs.field.${k}`;
        const label = k.startsWith('from_')
          ? k === 'from_none'
            ? t('jobs.field.fromNone')
            : t('jobs.field.from', { source: k.slice(5).replaceAll('_', ' ') })
          : kind && has(own)
            ? t(own)
            : has(key)
              ? t(key)
              : k.replaceAll('_', ' ');
        return {
          key: k,
          label,
          value: typeof v === 'number' ? number.format(v) : String(v),
          failure: FAILURE_KEYS.has(k) && typeof v === 'number' && v > 0,
        };
      });
}

export function ProgressBar({ run }: { run: RunSummary }) {
  const { t } = useT(jobsMessages);
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
