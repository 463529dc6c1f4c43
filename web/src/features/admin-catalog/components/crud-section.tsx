import { useState, type FormEvent, type ReactNode } from 'react';
import { useI18n, useT } from '../../../lib/i18n';
import { clearIfUnchanged, sentForm } from '../../../lib/forms';
import { ErrorState, Loading } from '../../../lib/ui';
import { useAdminList, useAdminWrite, type Resource } from '../api/catalog';
import { catalogMessages } from '../messages';
import { WriteError } from './write-error';
import './catalog-tables.css';

interface Props<T extends { id: string; name: string }> {
  resource: Resource;
  title: string;
  /** headers of the columns `cells` fills, before the on/off column */
  columns: string[];
  /** one entry per column of `columns` (the content of each cell) */
  cells(row: T): ReactNode[];
  /** the on/off column: its header and the boolean field it patches */
  toggle: { label: string; field: keyof T & string };
  /** the create form's fields, and the body the form makes */
  fields: ReactNode;
  toBody(form: FormData): Record<string, unknown>;
  /** editing a row: the form's fields (filled from the row) and the PATCH body the form makes */
  edit?: { fields(row: T): ReactNode; toPatch(form: FormData, row: T): Record<string, unknown> };
  /** more buttons beside Edit and Delete (e.g. a provider's Test) */
  rowActions?(row: T): ReactNode;
}

/** The name input every catalog resource has. */
export function NameField({ defaultValue }: { defaultValue?: string }) {
  const { t } = useI18n();
  return (
    <label>
      {t('admin.catalog.name')}
      <input name="name" required maxLength={120} defaultValue={defaultValue} />
    </label>
  );
}

/**
 * One catalog resource: its table (with an on/off switch, edit and delete buttons per row) and a
 * create form below it. The section shows the error of its latest write only: a later successful
 * write clears an older failure. On a phone each row is stacked as label/value pairs, so the URL
 * and the actions stay visible.
 */
export function CrudSection<T extends { id: string; name: string }>({
  resource,
  title,
  columns,
  cells,
  toggle,
  fields,
  toBody,
  edit,
  rowActions,
}: Props<T>) {
  const { t } = useI18n();
  const text = useT(catalogMessages);
  const list = useAdminList<T>(resource);
  const { create, update, remove } = useAdminWrite(resource);
  const [editing, setEditing] = useState<string | null>(null);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const sent = sentForm(form);
    create.mutate(toBody(new FormData(form)), { onSuccess: () => clearIfUnchanged(form, sent) });
  };
  const submitEdit = (row: T) => (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!edit) return;
    update.mutate(
      { id: row.id, ...edit.toPatch(new FormData(e.currentTarget), row) },
      { onSuccess: () => setEditing(null) },
    );
  };
  const titleId = `${resource}-title`;
  const span = columns.length + 2;
  return (
    <section className="admin-section card" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <WriteError writes={[create, update, remove]} />
      {list.isLoading ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className="table-wrap">
          <table className="catalog-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
                <th>{toggle.label}</th>
                <th>{text.t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.map((row) => [
                <tr key={row.id} data-testid={`${resource}-row`}>
                  {cells(row).map((cell, i) => (
                    <td key={columns[i]} data-label={columns[i]}>
                      <span className="cell">{cell}</span>
                    </td>
                  ))}
                  <td data-label={toggle.label}>
                    <input
                      type="checkbox"
                      aria-label={`${toggle.label}: ${row.name}`}
                      checked={Boolean(row[toggle.field])}
                      onChange={(e) => update.mutate({ id: row.id, [toggle.field]: e.target.checked })}
                    />
                  </td>
                  <td className="row-actions" data-label={text.t('actions')}>
                    <div className="actions">
                      {edit && (
                        <button
                          type="button"
                          aria-expanded={editing === row.id}
                          aria-label={text.t('editing', { name: row.name })}
                          onClick={() => setEditing(editing === row.id ? null : row.id)}
                        >
                          {text.t('edit')}
                        </button>
                      )}
                      {rowActions?.(row)}
                      <button type="button" className="danger" onClick={() => remove.mutate(row.id)}>
                        {t('common.delete')}
                      </button>
                    </div>
                  </td>
                </tr>,
                edit && editing === row.id ? (
                  <tr key={`${row.id}-edit`} className="edit-row">
                    <td colSpan={span}>
                      <form
                        className="row"
                        onSubmit={submitEdit(row)}
                        aria-label={text.t('editing', { name: row.name })}
                      >
                        {edit.fields(row)}
                        <button type="submit" disabled={update.isPending}>
                          {text.t('save')}
                        </button>
                        <button type="button" onClick={() => setEditing(null)}>
                          {text.t('cancel')}
                        </button>
                      </form>
                    </td>
                  </tr>
                ) : null,
              ])}
            </tbody>
          </table>
        </div>
      )}
      <form className="row" onSubmit={submit}>
        {fields}
        <button type="submit" disabled={create.isPending}>
          {t('common.create')}
        </button>
      </form>
    </section>
  );
}
