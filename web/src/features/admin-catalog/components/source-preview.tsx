import type { SourcePreview } from '../api/sources';
import { fill, problemText, useSourceText } from '../source-messages';
import { useDateTime } from './source-parts';

/**
 * What the preview found: the feed (title, format, item count, newest item), the feeds a page links
 * to (the admin picks one), or why the address is not a feed.
 */
export function PreviewPanel({ p, onPick }: { p: SourcePreview; onPick(url: string): void }) {
  const text = useSourceText();
  const when = useDateTime();
  return (
    <div className="source-preview" role="status" data-testid="source-preview" data-status={p.status}>
      {p.page_title && p.url !== p.requested_url && p.feed && (
        <p className="muted">{fill(text.foundThrough, { page: p.page_title })}</p>
      )}
      {p.feed && (
        <>
          <p>
            <strong>{fill(text.feedFound, { title: p.feed.title ?? text.untitled })}</strong>
          </p>
          <p>
            {text[`format.${p.feed.format}`]} · {fill(text.items, { n: p.feed.item_count })}
            {p.http_status !== null && ` · ${fill(text.httpLine, { status: p.http_status })}`}
          </p>
          <p className="url-cell">{p.url}</p>
          {p.feed.newest && (
            <p>
              {text.newest}
              <a href={p.feed.newest.url} target="_blank" rel="noreferrer noopener">
                {p.feed.newest.title || p.feed.newest.url}
              </a>{' '}
              <span className="muted">
                (
                {p.feed.newest.published_at
                  ? fill(text.published, { date: when(p.feed.newest.published_at) })
                  : text.noDate}
                )
              </span>
            </p>
          )}
        </>
      )}
      {p.status === 'page' && (
        <>
          <p>{fill(text.pickOne, { n: p.discovered.length })}</p>
          <ul className="discovered-feeds">
            {p.discovered.map((d) => (
              <li key={d.url}>
                <span>
                  {d.title ?? text.untitled}
                  {d.type && <span className="badge">{text[`format.${d.type}`]}</span>}
                  <br />
                  <small className="url-cell">{d.url}</small>
                </span>
                <button
                  type="button"
                  onClick={() => onPick(d.url)}
                  aria-label={`${text.use}: ${d.title ?? d.url}`}
                >
                  {text.use}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {p.problem && (
        <p className="form-error">
          <strong>{text.notAFeed}</strong>
          {problemText(text, p.problem)} <small className="source-raw">({p.problem.message})</small>
        </p>
      )}
    </div>
  );
}
