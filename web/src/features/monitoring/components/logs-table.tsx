import { useState } from 'react';
import { Copy } from 'lucide-react';
import { nsToDate, toLogRows, type LogRow } from '../model/panel-data';
import type { StreamResult } from '../model/types';
import { Dialog } from '../../../lib/dialog';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';

/** Log lines of one level; a row opens the raw entry. */
export function LogsTable({ streams }: { streams: StreamResult[] }) {
  const { t } = useT(monMessages);
  const rows = toLogRows(streams);
  const [open, setOpen] = useState<LogRow | null>(null);
  if (!rows.length) return <p className="state state-empty">{t('mon.logs.empty')}</p>;
  return (
    <>
      <div className="mon-table-wrap">
        <table className="mon-table">
          <thead>
            <tr>
              <th scope="col">{t('mon.logs.time')}</th>
              <th scope="col">{t('mon.logs.event')}</th>
              <th scope="col">{t('mon.logs.message')}</th>
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
                aria-label={t('mon.logs.entryOf', { event: String(r.fields.event ?? '') })}
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
  const { t } = useT(monMessages);
  const [copied, setCopied] = useState(false);
  const raw = (() => {
    try {
      return JSON.stringify(JSON.parse(row.line), null, 2);
    } catch {
      return row.line;
    }
  })();
  return (
    <Dialog title={t('mon.logs.entry')} onClose={onClose}>
      <dl className="mon-facts">
        <dt>{t('mon.logs.event')}</dt>
        <dd>{String(row.fields.event ?? '—')}</dd>
        <dt>{t('mon.logs.correlation')}</dt>
        <dd>
          <code>{String(row.fields.correlation_id ?? '—')}</code>
        </dd>
        <dt>{t('mon.logs.logTime')}</dt>
        <dd>{nsToDate(row.ts).toISOString()}</dd>
        <dt>{t('mon.logs.recordTime')}</dt>
        <dd>{String(row.fields.time ?? '—')}</dd>
        <dt>{t('mon.logs.labels')}</dt>
        <dd>
          <code>
            {Object.entries(row.labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ') || '—'}
          </code>
        </dd>
      </dl>
      <div className="mon-raw-head">
        <h3>{t('mon.logs.raw')}</h3>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(raw).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          <Copy size={14} aria-hidden /> {t(copied ? 'mon.logs.copied' : 'mon.logs.copy')}
        </button>
      </div>
      <pre className="mon-raw" data-testid="log-raw">
        {raw}
      </pre>
    </Dialog>
  );
}
