import { useT } from '../../../lib/i18n';
import type { SourcePreview } from '../api/sources';
import { problemText, sourceMessages } from '../source-messages';
import { useDateTime } from './source-parts';

/**
 * What the preview found: the feed (title, format, item count, newest item), the feeds a page links
 * to (the admin picks one), or why the address is not a feed.
 */
export function PreviewPanel({ p, onPick }: { p: SourcePreview; onPick(url: string): void }) {
  const text = useT(sourceMessages);
  const when = useDateTime();
  return (
    <div className="source-preview" role="status" data-testid="source-preview" data-status={p.status}>
      {p.page_title && p.url !== p.requested_url && p.feed && (
        <p className="muted">{text.t('foundThrough', { page: p.page_title })}</p>
      )}
      {p.feed && (
        <>
          <p>
            <strong>{text.t('feedFound', { title: p.feed.title ?? text.t('untitled') })}</strong>
          </p>
          <p>
            {text.t(`format.${p.feed.format}`)} · {text.t('items', { n: p.feed.item_count })}
            {p.http_status !== null && ` · ${text.t('httpLine', { status: p.http_status })}`}
          </p>
          <p className="url-cell">{p.url}</p>
          {p.feed.newest && (
            <p>
              {text.t('newest')}
              <a href={p.feed.newest.url} target="_blank" rel="noreferrer noopener">
                {p.feed.newest.title || p.feed.newest.url}
              </a>{' '}
              <span className="muted">
                (
                {p.feed.newest.published_at
                  ? text.t('published', { date: when(p.feed.newest.published_at) })
                  : text.t('noDate')}
                )
              </span>
            </p>
          )}
        </>
      )}
      {p.status === 'page' && (
        <>
          <p>{text.t('pickOne', { n: p.discovered.length })}</p>
          <ul className="discovered-feeds">
            {p.discovered.map((d) => (
              <li key={d.url}>
                <span>
                  {d.title ?? text.t('untitled')}
                  {d.type && <span className="badge">{text.t(`format.${d.type}`)}</span>}
                  <br />
                  <small className="url-cell">{d.url}</small>
                </span>
                <button
                  type="button"
                  onClick={() => onPick(d.url)}
                  aria-label={`${text.t('use')}: ${d.title ?? d.url}`}
                >
                  {text.t('use')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {p.problem && (
        <p className="form-error">
          <strong>{text.t('notAFeed')}</strong>
          {problemText(text, p.problem)} <small className="source-raw">({p.problem.message})</small>
        </p>
      )}
    </div>
  );
}
