import type { FormEvent, ReactNode } from 'react';
import { useI18n } from '../../../lib/i18n';
import { ErrorState, Loading } from '../../../lib/ui';
import { useAdminList, useAdminWrite, type Resource } from '../api/catalog';
import { WriteError } from './write-error';

interface Props<T extends { id: string; name: string }> {
  resource: Resource;
  title: string;
  /** headers of the columns `cells` fills, before the on/off column */
  columns: string[];
  cells(row: T): ReactNode;
  /** the on/off column: its header and the boolean field it patches */
  toggle: { label: string; field: keyof T & string };
  /** the create form's fields, and the body the form makes */
  fields: ReactNode;
  toBody(form: FormData): Record<string, unknown>;
}

/** The name input every catalog resource has. */
export function NameField() {
  const { t } = useI18n();
  return (
    <label>
      {t('admin.catalog.name')}
      <input name="name" required maxLength={120} />
    </label>
  );
}

/**
 * One catalog resource: its table (with an on/off switch and a delete button per row) and a
 * create form below it; every write error is shown above the table.
 */
export function CrudSection<T extends { id: string; name: string }>({
  resource,
  title,
  columns,
  cells,
  toggle,
  fields,
  toBody,
}: Props<T>) {
  const { t } = useI18n();
  const list = useAdminList<T>(resource);
  const { create, update, remove } = useAdminWrite(resource);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    create.mutate(toBody(new FormData(form)), { onSuccess: () => form.reset() });
  };
  const titleId = `${resource}-title`;
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
          <table>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
                <th>{toggle.label}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.data?.map((row) => (
                <tr key={row.id}>
                  {cells(row)}
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${toggle.label}: ${row.name}`}
                      checked={Boolean(row[toggle.field])}
                      onChange={(e) => update.mutate({ id: row.id, [toggle.field]: e.target.checked })}
                    />
                  </td>
                  <td>
                    <button type="button" className="danger" onClick={() => remove.mutate(row.id)}>
                      {t('common.delete')}
                    </button>
                  </td>
                </tr>
              ))}
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
