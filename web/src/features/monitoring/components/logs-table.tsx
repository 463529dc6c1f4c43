import { useState } from 'react';
import { Copy } from 'lucide-react';
import { nsToDate, toLogRows, type LogRow } from '../model/panel-data';
import type { StreamResult } from '../model/types';
import { Dialog } from './dialog';

/** Log lines of one level; a row opens the raw entry. */
export function LogsTable({ streams }: { streams: StreamResult[] }) {
  const rows = toLogRows(streams);
  const [open, setOpen] = useState<LogRow | null>(null);
  if (!rows.length) return <p className="state state-empty">No log lines in this range.</p>;
  return (
    <>
      <div className="mon-table-wrap">
        <table className="mon-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.key}
                className="mon-row-button"
                tabIndex={0}
                onClick={() => setOpen(r)}
                onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), setOpen(r))}
                aria-label={`log entry ${String(r.fields.event ?? '')}`}
              >
                <td>{nsToDate(r.ts).toLocaleString()}</td>
                <td>{String(r.fields.event ?? '')}</td>
                <td className="mon-ellipsis">{String(r.fields.msg ?? r.fields.message ?? r.line)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open && <LogDetail row={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function LogDetail({ row, onClose }: { row: LogRow; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const raw = (() => {
    try {
      return JSON.stringify(JSON.parse(row.line), null, 2);
    } catch {
      return row.line;
    }
  })();
  return (
    <Dialog title="Log entry" onClose={onClose}>
      <dl className="mon-facts">
        <dt>Event</dt>
        <dd>{String(row.fields.event ?? '—')}</dd>
        <dt>Correlation id</dt>
        <dd>
          <code>{String(row.fields.correlation_id ?? '—')}</code>
        </dd>
        <dt>Log time</dt>
        <dd>{nsToDate(row.ts).toISOString()}</dd>
        <dt>Record time</dt>
        <dd>{String(row.fields.time ?? '—')}</dd>
        <dt>Labels</dt>
        <dd>
          <code>
            {Object.entries(row.labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ') || '—'}
          </code>
        </dd>
      </dl>
      <div className="mon-raw-head">
        <h3>Raw entry</h3>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(raw).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          <Copy size={14} aria-hidden /> {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre className="mon-raw" data-testid="log-raw">
        {raw}
      </pre>
    </Dialog>
  );
}
