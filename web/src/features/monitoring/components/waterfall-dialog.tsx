import { useMemo, useState } from 'react';
import { attr, waterfallRows } from '../model/panel-data';
import type { TraceDetail } from '../model/types';
import { Dialog } from '../../../lib/dialog';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';

const ROW = 24;
const VISIBLE = 24;

/**
 * A Gantt-style waterfall of every span of one trace. Only the rows in view are rendered, so a
 * 5,000-span trace scrolls as smoothly as a small one.
 */
export function WaterfallDialog({
  traceId,
  detail,
  onClose,
}: {
  traceId: string;
  detail: TraceDetail;
  onClose: () => void;
}) {
  const { t } = useT(monMessages);
  const { rows, totalMs } = useMemo(() => waterfallRows(detail), [detail]);
  const [scrollTop, setScrollTop] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const first = Math.max(0, Math.floor(scrollTop / ROW) - 5);
  const last = Math.min(rows.length, first + VISIBLE + 10);
  const sel = selected !== null ? rows[selected] : undefined;
  return (
    <Dialog
      title={t('mon.wf.title', { id: traceId.slice(0, 16), n: rows.length, ms: totalMs.toFixed(1) })}
      onClose={onClose}
      size="wide"
    >
      <div
        className="mon-waterfall"
        style={{ height: VISIBLE * ROW }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        role="list"
        aria-label={t('mon.wf.spans')}
        data-testid="waterfall"
      >
        <div style={{ height: rows.length * ROW, position: 'relative' }}>
          {rows.slice(first, last).map((r, i) => {
            const index = first + i;
            const left = totalMs > 0 ? (r.offsetMs / totalMs) * 100 : 0;
            const width = totalMs > 0 ? Math.max(0.3, (r.durationMs / totalMs) * 100) : 100;
            return (
              <button
                type="button"
                role="listitem"
                key={r.span.spanId}
                className={`mon-wf-row${r.error ? ' is-error' : ''}${selected === index ? ' is-selected' : ''}`}
                style={{ top: index * ROW, height: ROW }}
                onClick={() => setSelected(index)}
                aria-label={`${r.span.name}, ${r.durationMs.toFixed(1)} ms${r.error ? ', error' : ''}`}
              >
                <span className="mon-wf-name" style={{ paddingLeft: 6 + r.depth * 12 }}>
                  {r.span.name}
                </span>
                <span className="mon-wf-track">
                  <span className="mon-wf-bar" style={{ left: `${left}%`, width: `${width}%` }} />
                </span>
                <span className="mon-wf-dur">{r.durationMs.toFixed(1)} ms</span>
              </button>
            );
          })}
        </div>
      </div>
      {sel && (
        <section className="mon-span-attrs" aria-label={t('mon.wf.selected')}>
          <h3>
            {sel.span.name}{' '}
            {sel.error && <span className="mon-badge mon-badge-error">{t('mon.traces.error')}</span>}
          </h3>
          <dl className="mon-facts">
            <dt>{t('mon.wf.duration')}</dt>
            <dd>{sel.durationMs.toFixed(2)} ms</dd>
            <dt>{t('mon.wf.offset')}</dt>
            <dd>{sel.offsetMs.toFixed(2)} ms</dd>
            {sel.span.status?.message && (
              <>
                <dt>{t('mon.wf.status')}</dt>
                <dd>{sel.span.status.message}</dd>
              </>
            )}
            {(sel.span.attributes ?? []).map((a) => (
              <span key={a.key} style={{ display: 'contents' }}>
                <dt>{a.key}</dt>
                <dd>{attr(sel.span.attributes, a.key)}</dd>
              </span>
            ))}
          </dl>
        </section>
      )}
    </Dialog>
  );
}
