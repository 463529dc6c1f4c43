import { ErrorState, Loading } from '../../../lib/ui';
import { useFetchHistory, type SourceRow } from '../api/sources';
import { fill, problemText, useSourceText } from '../source-messages';
import { useDateTime } from './source-parts';

/** A source's last 20 fetch results, newest first. */
export function SourceHistory({ source }: { source: SourceRow }) {
  const text = useSourceText();
  const when = useDateTime();
  const history = useFetchHistory(source.id, true);
  const title = fill(text.historyTitle, { name: source.name });
  if (history.isLoading) return <Loading />;
  if (history.isError) return <ErrorState error={history.error} onRetry={() => void history.refetch()} />;
  const rows = history.data ?? [];
  return (
    <div className="source-history" data-testid="source-history">
      <h4>{title}</h4>
      {rows.length === 0 ? (
        <p className="muted">{text.historyEmpty}</p>
      ) : (
        <div className="table-wrap">
          <table className="catalog-table history-table" aria-label={title}>
            <thead>
              <tr>
                <th>{text.colStarted}</th>
                <th>{text.colDuration}</th>
                <th>{text.colHttp}</th>
                <th>{text.colSeen}</th>
                <th>{text.colNew}</th>
                <th>{text.colDup}</th>
                <th>{text.colResult}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((f) => (
                <tr key={f.id} data-testid="fetch-row">
                  <td data-label={text.colStarted}>{when(f.started_at)}</td>
                  <td data-label={text.colDuration}>{fill(text.ms, { n: f.duration_ms })}</td>
                  <td data-label={text.colHttp}>{f.http_status ?? '—'}</td>
                  <td data-label={text.colSeen}>{f.items_seen}</td>
                  <td data-label={text.colNew}>{f.items_new ?? '—'}</td>
                  <td data-label={text.colDup}>{f.items_duplicate ?? '—'}</td>
                  <td data-label={text.colResult}>
                    {f.error_code ? (
                      <span className="form-error">
                        {problemText(text, { code: f.error_code, http_status: f.http_status })}{' '}
                        <small className="source-raw">{f.error}</small>
                      </span>
                    ) : f.http_status === 304 ? (
                      text.notModified
                    ) : (
                      text.ok
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
