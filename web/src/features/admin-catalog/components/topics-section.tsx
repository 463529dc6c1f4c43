import type { FormEvent } from 'react';
import { useI18n } from '../../../lib/i18n';
import { ErrorState, Loading } from '../../../lib/ui';
import { useAdminList, useAdminWrite, type Topic } from '../api/catalog';
import { WriteError } from './write-error';

export function TopicsSection() {
  const { t } = useI18n();
  const list = useAdminList<Topic>('topics');
  const { create, update, remove } = useAdminWrite('topics');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    create.mutate(
      { name: String(f.get('name')), description: String(f.get('description') ?? '') || null },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <section className="admin-section card" aria-labelledby="topics-title">
      <h2 id="topics-title">{t('admin.catalog.topics')}</h2>
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
                <th>{t('admin.catalog.name')}</th>
                <th>{t('admin.catalog.description')}</th>
                <th>{t('admin.catalog.active')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.data?.map((topic) => (
                <tr key={topic.id}>
                  <td>{topic.name}</td>
                  <td>{topic.description}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${t('admin.catalog.active')}: ${topic.name}`}
                      checked={topic.is_active}
                      onChange={(e) => update.mutate({ id: topic.id, is_active: e.target.checked })}
                    />
                  </td>
                  <td>
                    <button type="button" className="danger" onClick={() => remove.mutate(topic.id)}>
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
        <label>
          {t('admin.catalog.name')}
          <input name="name" required maxLength={120} />
        </label>
        <label>
          {t('admin.catalog.description')}
          <input name="description" maxLength={2000} />
        </label>
        <button type="submit" disabled={create.isPending}>
          {t('common.create')}
        </button>
      </form>
    </section>
  );
}
