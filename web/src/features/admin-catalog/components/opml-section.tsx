import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useI18n, useT } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import { OPML_EXPORT_URL, OPML_MAX_BYTES, useOpmlImport, type OpmlImport } from '../api/opml';
import { opmlMessages, type OpmlKey, type OpmlText } from '../opml-messages';
import './catalog-tables.css';
import './opml-section.css';

/** rows shown per table of a plan; the counts above always give the whole */
const ROWS_SHOWN = 200;

/** the import's error codes this section words itself (the rest go through the shared wording) */
const ERROR_CODES = [
  'opml_invalid',
  'opml_malformed',
  'opml_entities_refused',
  'opml_control_characters',
  'opml_too_many_outlines',
  'opml_too_deep',
  'opml_empty',
  'payload_too_large',
  'unsupported_media_type',
  'catalog_changed',
] as const satisfies readonly OpmlKey[];

/** The translation of an OPML error code, else the shared wording of the error. */
function opmlError(error: unknown, text: OpmlText, fallback: string): string {
  const code = error instanceof ApiError ? (ERROR_CODES as readonly string[]).indexOf(error.code) : -1;
  return code >= 0 ? text.t(ERROR_CODES[code]!) : errorMessage(error, fallback);
}

function PlanTable({
  caption,
  columns,
  rows,
  text,
  testId,
}: {
  caption: string;
  columns: string[];
  rows: ReactNode[][];
  text: OpmlText;
  testId: string;
}) {
  if (rows.length === 0) return null;
  return (
    <div className="table-wrap">
      <table className="catalog-table opml-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, ROWS_SHOWN).map((cells, i) => (
            <tr key={i}>
              {cells.map((cell, j) => (
                <td key={columns[j]} data-label={columns[j]}>
                  <span className="cell">{cell}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > ROWS_SHOWN && <p className="muted">{text.t('more', { n: rows.length - ROWS_SHOWN })}</p>}
    </div>
  );
}

/** "refused to connect to 10.0.0.1: private address" in the page's language when the range is known */
function refusedReason(reason: string, text: OpmlText): string {
  const range = /: (\w+) address$/.exec(reason)?.[1];
  const key = `range_${range}`;
  return range && text.has(key) ? text.t('refusedReason', { range: text.t(key) }) : reason;
}

/** A preview (dry run) or the result of an import: counts, then topics, sources, duplicates, errors. */
function Plan({
  plan,
  file,
  text,
  allowed,
  onAllow,
  children,
}: {
  plan: OpmlImport;
  file: string;
  text: OpmlText;
  /** the preview's hosts the admin allows (a checkbox per refused feed) */
  allowed?: ReadonlySet<string>;
  onAllow?: (host: string, allow: boolean) => void;
  children?: ReactNode;
}) {
  const done = !plan.dry_run;
  const newTopics = plan.topics.filter((t) => t.action === 'create').length;
  const counts: [string, number][] = [
    [done ? text.t('topicsCreated') : text.t('topicsToCreate'), done ? plan.created.topics : newTopics],
    [
      done ? text.t('sourcesCreated') : text.t('sourcesToCreate'),
      done ? plan.created.sources : plan.sources.length,
    ],
    [text.t('duplicates'), plan.duplicates.length],
    [text.t('invalid'), plan.invalid.length],
    [text.t('refused'), plan.refused.length],
  ];
  const url = (u: string | null) => <span className="url-cell">{u ?? '—'}</span>;
  return (
    <div className="opml-plan" data-testid={done ? 'opml-result' : 'opml-preview'}>
      <p role="status" className={done ? 'saved' : undefined}>
        {text.t(done ? 'resultOf' : 'planOf', { file })}
      </p>
      <dl className="opml-counts">
        {counts.map(([label, n]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{n}</dd>
          </div>
        ))}
      </dl>
      <PlanTable
        caption={text.t('topics')}
        testId="opml-topics"
        text={text}
        columns={[text.t('topic'), text.t('sources')]}
        rows={plan.topics.map((t) => [
          <>
            {t.name}
            <span className="badge">
              {t.action === 'create' ? text.t('newTopic') : text.t('existingTopic')}
            </span>
          </>,
          t.sources,
        ])}
      />
      <PlanTable
        caption={done ? text.t('sourcesCreated') : text.t('sourcesToCreate')}
        testId="opml-sources"
        text={text}
        columns={[text.t('topic'), text.t('name'), text.t('url')]}
        rows={plan.sources.map((s) => [
          s.topic,
          <>
            {s.name}
            {!s.enabled && <span className="badge">{text.t('disabled')}</span>}
          </>,
          url(s.url),
        ])}
      />
      <PlanTable
        caption={text.t('duplicates')}
        testId="opml-duplicates"
        text={text}
        columns={[text.t('name'), text.t('url'), text.t('reason')]}
        rows={plan.duplicates.map((d) => [
          d.name,
          url(d.url),
          text.t(d.reason === 'in_catalog' ? 'in_catalog' : 'in_file', { topic: d.existing_topic }),
        ])}
      />
      <PlanTable
        caption={text.t('invalid')}
        testId="opml-invalid"
        text={text}
        columns={[text.t('folder'), text.t('outline'), text.t('url'), text.t('reason')]}
        rows={plan.invalid.map((x) => [
          x.folder ?? text.t('topLevel'),
          x.text || '—',
          url(x.url),
          text.t(x.reason, { topic: plan.default_topic }),
        ])}
      />
      {plan.refused.length > 0 && <p className="muted">{text.t('refusedHint')}</p>}
      <PlanTable
        caption={text.t('refused')}
        testId="opml-refused"
        text={text}
        columns={[
          text.t('name'),
          text.t('url'),
          text.t('reason'),
          ...(onAllow ? [text.t('allowColumn')] : []),
        ]}
        rows={plan.refused.map((r) => [
          r.name,
          url(r.url),
          refusedReason(r.reason, text),
          ...(onAllow
            ? [
                <label key="allow" className="opml-allow">
                  <input
                    type="checkbox"
                    checked={allowed?.has(r.host) ?? false}
                    onChange={(e) => onAllow(r.host, e.target.checked)}
                  />
                  {text.t('allowHost', { host: r.host })}
                </label>,
              ]
            : []),
        ])}
      />
      {!done && plan.sources.length === 0 && newTopics === 0 && !allowed?.size && <p>{text.t('nothing')}</p>}
      {children}
    </div>
  );
}

/**
 * Import / export OPML on the catalog page: Export downloads every topic and source; Import sends
 * the chosen file as a dry run, shows the plan, and imports the same file on Confirm.
 */
export function OpmlSection() {
  const { t } = useI18n();
  const text = useT(opmlMessages);
  const { preview, apply } = useOpmlImport();
  const [file, setFile] = useState<File | null>(null);
  const [allowed, setAllowed] = useState<ReadonlySet<string>>(new Set());
  const tooBig = file !== null && file.size > OPML_MAX_BYTES;
  const defaultTopic = text.t('defaultTopic');

  const allow = (host: string, on: boolean) =>
    setAllowed((prev) => {
      const next = new Set(prev);
      if (on) next.add(host);
      else next.delete(host);
      return next;
    });
  const choose = (f: File | null) => {
    setFile(f);
    setAllowed(new Set());
    preview.reset();
    apply.reset();
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (file && !tooBig) {
      apply.reset();
      setAllowed(new Set());
      preview.mutate({ file, defaultTopic });
    }
  };
  const confirm = () => {
    if (file)
      apply.mutate({ file, defaultTopic, allowHosts: [...allowed] }, { onSuccess: () => preview.reset() });
  };
  const error = apply.error ?? preview.error;
  const plan = preview.data;
  const nothingToDo = plan
    ? plan.sources.length === 0 && !plan.topics.some((x) => x.action === 'create') && allowed.size === 0
    : true;

  return (
    <section className="admin-section card opml-section" aria-labelledby="opml-title">
      <h2 id="opml-title">{text.t('title')}</h2>
      <p className="muted">{text.t('intro', { topic: defaultTopic })}</p>
      <div className="row opml-export">
        <a className="button-link" href={OPML_EXPORT_URL} download>
          {text.t('export')}
        </a>
        <span className="muted">{text.t('exportHint')}</span>
      </div>
      <form className="row" onSubmit={submit} aria-label={text.t('preview')}>
        {/* the browser's own file button speaks the browser's language: ours speaks the page's */}
        <div className="opml-file">
          <span className="opml-file-label">{text.t('file')}</span>
          <label className="opml-choose">
            {text.t('chooseFile')}
            <input
              type="file"
              name="opml"
              aria-label={text.t('file')}
              accept=".opml,.xml,text/x-opml,application/xml,text/xml"
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
            />
          </label>
          <span className="opml-file-name" data-testid="opml-file-name">
            {file?.name ?? text.t('noFile')}
          </span>
        </div>
        <button type="submit" disabled={!file || tooBig || preview.isPending}>
          {preview.isPending ? text.t('previewing') : text.t('preview')}
        </button>
      </form>
      {tooBig && (
        <p className="form-error" role="alert">
          {text.t('tooBig')}
        </p>
      )}
      {error && !tooBig && (
        <p className="form-error" role="alert">
          {opmlError(error, text, t('common.error'))}
        </p>
      )}
      {plan && file && (
        <Plan plan={plan} file={file.name} text={text} allowed={allowed} onAllow={allow}>
          <div className="row">
            <button
              type="button"
              className="primary"
              onClick={confirm}
              disabled={nothingToDo || apply.isPending}
            >
              {apply.isPending ? text.t('importing') : text.t('confirm')}
            </button>
            <button type="button" onClick={() => preview.reset()} disabled={apply.isPending}>
              {text.t('cancel')}
            </button>
          </div>
        </Plan>
      )}
      {apply.data && <Plan plan={apply.data} file={file?.name ?? 'OPML'} text={text} />}
    </section>
  );
}
