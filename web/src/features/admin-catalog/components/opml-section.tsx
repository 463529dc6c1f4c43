import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import { OPML_EXPORT_URL, OPML_MAX_BYTES, useOpmlImport, type OpmlImport } from '../api/opml';
import { fill, useOpmlText, type OpmlText } from '../opml-messages';
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
] as const satisfies readonly (keyof OpmlText)[];

/** The translation of an OPML error code, else the shared wording of the error. */
function opmlError(error: unknown, text: OpmlText, fallback: string): string {
  const code = error instanceof ApiError ? (ERROR_CODES as readonly string[]).indexOf(error.code) : -1;
  return code >= 0 ? text[ERROR_CODES[code]!] : errorMessage(error, fallback);
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
      {rows.length > ROWS_SHOWN && (
        <p className="muted">{fill(text.more, { n: rows.length - ROWS_SHOWN })}</p>
      )}
    </div>
  );
}

/** A preview (dry run) or the result of an import: counts, then topics, sources, duplicates, errors. */
function Plan({
  plan,
  file,
  text,
  children,
}: {
  plan: OpmlImport;
  file: string;
  text: OpmlText;
  children?: ReactNode;
}) {
  const done = !plan.dry_run;
  const newTopics = plan.topics.filter((t) => t.action === 'create').length;
  const counts: [string, number][] = [
    [done ? text.topicsCreated : text.topicsToCreate, done ? plan.created.topics : newTopics],
    [done ? text.sourcesCreated : text.sourcesToCreate, done ? plan.created.sources : plan.sources.length],
    [text.duplicates, plan.duplicates.length],
    [text.invalid, plan.invalid.length],
  ];
  const url = (u: string | null) => <span className="url-cell">{u ?? '—'}</span>;
  return (
    <div className="opml-plan" data-testid={done ? 'opml-result' : 'opml-preview'}>
      <p role="status" className={done ? 'saved' : undefined}>
        {fill(done ? text.resultOf : text.planOf, { file })}
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
        caption={text.topics}
        testId="opml-topics"
        text={text}
        columns={[text.topic, text.sources]}
        rows={plan.topics.map((t) => [
          <>
            {t.name}
            <span className="badge">{t.action === 'create' ? text.newTopic : text.existingTopic}</span>
          </>,
          t.sources,
        ])}
      />
      <PlanTable
        caption={done ? text.sourcesCreated : text.sourcesToCreate}
        testId="opml-sources"
        text={text}
        columns={[text.topic, text.name, text.url]}
        rows={plan.sources.map((s) => [
          s.topic,
          <>
            {s.name}
            {!s.enabled && <span className="badge">{text.disabled}</span>}
          </>,
          url(s.url),
        ])}
      />
      <PlanTable
        caption={text.duplicates}
        testId="opml-duplicates"
        text={text}
        columns={[text.name, text.url, text.reason]}
        rows={plan.duplicates.map((d) => [
          d.name,
          url(d.url),
          fill(d.reason === 'in_catalog' ? text.in_catalog : text.in_file, { topic: d.existing_topic }),
        ])}
      />
      <PlanTable
        caption={text.invalid}
        testId="opml-invalid"
        text={text}
        columns={[text.folder, text.outline, text.url, text.reason]}
        rows={plan.invalid.map((x) => [
          x.folder ?? text.topLevel,
          x.text || '—',
          url(x.url),
          fill(text[x.reason], { topic: plan.default_topic }),
        ])}
      />
      {!done && plan.sources.length === 0 && newTopics === 0 && <p>{text.nothing}</p>}
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
  const text = useOpmlText();
  const { preview, apply } = useOpmlImport();
  const [file, setFile] = useState<File | null>(null);
  const tooBig = file !== null && file.size > OPML_MAX_BYTES;
  const defaultTopic = text.defaultTopic;

  const choose = (f: File | null) => {
    setFile(f);
    preview.reset();
    apply.reset();
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (file && !tooBig) {
      apply.reset();
      preview.mutate({ file, defaultTopic });
    }
  };
  const confirm = () => {
    if (file) apply.mutate({ file, defaultTopic }, { onSuccess: () => preview.reset() });
  };
  const error = apply.error ?? preview.error;
  const plan = preview.data;
  const nothingToDo = plan
    ? plan.sources.length === 0 && !plan.topics.some((x) => x.action === 'create')
    : true;

  return (
    <section className="admin-section card opml-section" aria-labelledby="opml-title">
      <h2 id="opml-title">{text.title}</h2>
      <p className="muted">{fill(text.intro, { topic: defaultTopic })}</p>
      <div className="row opml-export">
        <a className="button-link" href={OPML_EXPORT_URL} download>
          {text.export}
        </a>
        <span className="muted">{text.exportHint}</span>
      </div>
      <form className="row" onSubmit={submit} aria-label={text.preview}>
        {/* the browser's own file button speaks the browser's language: ours speaks the page's */}
        <div className="opml-file">
          <span className="opml-file-label">{text.file}</span>
          <label className="opml-choose">
            {text.chooseFile}
            <input
              type="file"
              name="opml"
              aria-label={text.file}
              accept=".opml,.xml,text/x-opml,application/xml,text/xml"
              onChange={(e) => choose(e.target.files?.[0] ?? null)}
            />
          </label>
          <span className="opml-file-name" data-testid="opml-file-name">
            {file?.name ?? text.noFile}
          </span>
        </div>
        <button type="submit" disabled={!file || tooBig || preview.isPending}>
          {preview.isPending ? text.previewing : text.preview}
        </button>
      </form>
      {tooBig && (
        <p className="form-error" role="alert">
          {text.tooBig}
        </p>
      )}
      {error && !tooBig && (
        <p className="form-error" role="alert">
          {opmlError(error, text, t('common.error'))}
        </p>
      )}
      {plan && file && (
        <Plan plan={plan} file={file.name} text={text}>
          <div className="row">
            <button
              type="button"
              className="primary"
              onClick={confirm}
              disabled={nothingToDo || apply.isPending}
            >
              {apply.isPending ? text.importing : text.confirm}
            </button>
            <button type="button" onClick={() => preview.reset()} disabled={apply.isPending}>
              {text.cancel}
            </button>
          </div>
        </Plan>
      )}
      {apply.data && <Plan plan={apply.data} file={file?.name ?? 'OPML'} text={text} />}
    </section>
  );
}
