import { ApiError } from '../../../lib/api-client';
import { useI18n, useT } from '../../../lib/i18n';
import { errorMessage, latestError } from '../../../lib/ui';
import type { SourceFetch, SourceRow } from '../api/sources';
import { problemText, sourceMessages } from '../source-messages';

/** a date and time in the page's language */
export function useDateTime() {
  const { locale } = useI18n();
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso: string | null | undefined) => (iso ? format.format(new Date(iso)) : '');
}

/** What the last fetch brought: HTTP status, items new and duplicate, or the problem in plain words. */
export function FetchOutcome({ f }: { f: SourceFetch }) {
  const text = useT(sourceMessages);
  if (f.error_code)
    return (
      <span className="source-problem">
        <span className="form-error">
          {problemText(text, { code: f.error_code, http_status: f.http_status })}
        </span>
        {f.error && <small className="muted source-raw"> {f.error}</small>}
      </span>
    );
  if (f.http_status === 304) return <span>{text.t('notModified')}</span>;
  return (
    <span>
      {f.http_status !== null && (
        <span className="badge">{text.t('httpLine', { status: f.http_status })}</span>
      )}{' '}
      {f.items_new === null || f.items_duplicate === null
        ? text.t('pending')
        : text.t('counts', { new: f.items_new, dup: f.items_duplicate })}
    </span>
  );
}

/** The last-fetch cell: when, and what it brought. */
export function LastFetchCell({ s }: { s: SourceRow }) {
  const text = useT(sourceMessages);
  const when = useDateTime();
  if (!s.last_fetch && !s.last_fetched_at) return <span className="muted">{text.t('neverFetched')}</span>;
  return (
    <span className="last-fetch">
      <span>{when(s.last_fetch?.started_at ?? s.last_fetched_at)}</span>{' '}
      {s.last_fetch ? (
        <FetchOutcome f={s.last_fetch} />
      ) : (
        s.last_error && <small className="form-error">{s.last_error}</small>
      )}
    </span>
  );
}

/** When the schedule reads the source next. */
export function NextFetchCell({ s }: { s: SourceRow }) {
  const text = useT(sourceMessages);
  const when = useDateTime();
  if (!s.enabled) return <span className="muted">—</span>;
  if (!s.next_fetch_at) return <span>{text.t('atNextRun')}</span>;
  return new Date(s.next_fetch_at).getTime() <= Date.now() ? (
    <span>{text.t('dueNow')}</span>
  ) : (
    <span>{when(s.next_fetch_at)}</span>
  );
}

/**
 * The failure of the latest write, if it failed. A source that is not a feed gets its reason in
 * plain words (the reader's own message beside it); other errors by their code.
 */
export function SourceWriteError({ writes }: { writes: { error: unknown; submittedAt: number }[] }) {
  const { t } = useI18n();
  const text = useT(sourceMessages);
  const error = latestError(writes);
  if (!error) return null;
  if (error instanceof ApiError && error.code === 'source_not_a_feed') {
    const detail = (error.details?.[0] as { message?: string } | undefined)?.message;
    return (
      <p className="form-error" role="alert">
        {text.t('notAFeedSaved')}
        {detail && <small className="source-raw"> ({detail})</small>}
      </p>
    );
  }
  return (
    <p className="form-error" role="alert">
      {error instanceof ApiError && error.code === 'invalid_fetch_interval'
        ? text.t('badInterval')
        : errorMessage(error, t('common.error'))}
    </p>
  );
}

/** whether the latest of these writes was refused because the URL is not a feed */
export const refusedAsNoFeed = (writes: { error: unknown; submittedAt: number }[]) => {
  const e = latestError(writes);
  return e instanceof ApiError && e.code === 'source_not_a_feed';
};
