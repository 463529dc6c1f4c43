import { useT } from '../../../lib/i18n';
import { ErrorState, Loading } from '../../../lib/ui';
import { useFetchHistory, type SourceRow } from '../api/sources';
import { problemText, sourceMessages } from '../source-messages';
import { useDateTime } from './source-parts';

/** A source's last 20 fetch results, newest first. */
export function SourceHistory({ source }: { source: SourceRow }) {
  const text = useT(sourceMessages);
  const when = useDateTime();
  const history = useFetchHistory(source.id, true);
  const title = text.t('historyTitle', { name: source.name });
  if (history.isLoading) return <Loading />;
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  const rows = history.data ?? [];
  return (
    <div className="source-history" data-testid="source-history">
      <h4>{title}</h4>
      {rows.length === 0 ? (
        <p className="muted">{text.t('historyEmpty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="catalog-table history-table" aria-label={title}>
            <thead>
              <tr>
                <th>{text.t('colStarted')}</th>
                <th>{text.t('colDuration')}</th>
                <th>{text.t('colHttp')}</th>
                <th>{text.t('colSeen')}</th>
                <th>{text.t('colNew')}</th>
                <th>{text.t('colDup')}</th>
                <th>{text.t('colResult')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((f) => (
                <tr key={f.id} data-testid="fetch-row">
                  <td data-label={text.t('colStarted')}>{when(f.started_at)}</td>
                  <td data-label={text.t('colDuration')}>{text.t('ms', { n: f.duration_ms })}</td>
                  <td data-label={text.t('colHttp')}>{f.http_status ?? '—'}</td>
                  <td data-label={text.t('colSeen')}>{f.items_seen}</td>
                  <td data-label={text.t('colNew')}>{f.items_new ?? '—'}</td>
                  <td data-label={text.t('colDup')}>{f.items_duplicate ?? '—'}</td>
                  <td data-label={text.t('colResult')}>
                    {f.error_code ? (
                      <span className="form-error">
                        {problemText(text, { code: f.error_code, http_status: f.http_status })}{' '}
                        <small className="source-raw">{f.error}</small>
                      </span>
                    ) : f.http_status === 304 ? (
                      text.t('notModified')
                    ) : (
                      text.t('ok')
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
