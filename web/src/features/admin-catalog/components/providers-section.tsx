import type { FormEvent } from 'react';
import { useI18n } from '../../../lib/i18n';
import { ErrorState, Loading } from '../../../lib/ui';
import { useAdminList, useAdminWrite, type Provider } from '../api/catalog';
import { WriteError } from './write-error';

export function ProvidersSection() {
  const { t } = useI18n();
  const list = useAdminList<Provider>('providers');
  const { create, update, remove } = useAdminWrite('providers');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const opt = (k: string) => String(f.get(k) ?? '').trim() || null;
    create.mutate(
      {
        name: String(f.get('name')),
        type: String(f.get('type')),
        base_url: String(f.get('base_url')),
        model: String(f.get('model')),
        image_model: opt('image_model'),
        api_key: opt('api_key'),
        is_active: true,
      },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <section className="admin-section card" aria-labelledby="providers-title">
      <h2 id="providers-title">{t('admin.catalog.providers')}</h2>
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
                <th>{t('admin.catalog.type')}</th>
                <th>{t('admin.catalog.model')}</th>
                <th>{t('admin.catalog.baseUrl')}</th>
                <th>{t('admin.catalog.active')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.data?.map((p) => (
                <tr key={p.id}>
                  <td>
                    {p.name} {p.has_api_key && <span className="badge">{t('admin.catalog.hasKey')}</span>}
                  </td>
                  <td>{p.type}</td>
                  <td>
                    {p.model}
                    {p.image_model ? ` / ${p.image_model}` : ''}
                  </td>
                  <td>{p.base_url}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${t('admin.catalog.active')}: ${p.name}`}
                      checked={p.is_active}
                      onChange={(e) => update.mutate({ id: p.id, is_active: e.target.checked })}
                    />
                  </td>
                  <td>
                    <button type="button" className="danger" onClick={() => remove.mutate(p.id)}>
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
          {t('admin.catalog.type')}
          <select name="type">
            <option value="text">text</option>
            <option value="multimodal">multimodal</option>
          </select>
        </label>
        <label>
          {t('admin.catalog.baseUrl')}
          <input name="base_url" type="url" required pattern="https?://.+" />
        </label>
        <label>
          {t('admin.catalog.model')}
          <input name="model" required />
        </label>
        <label>
          {t('admin.catalog.imageModel')}
          <input name="image_model" />
        </label>
        <label>
          {t('admin.catalog.apiKey')}
          <input name="api_key" type="password" autoComplete="off" />
        </label>
        <button type="submit" disabled={create.isPending}>
          {t('common.create')}
        </button>
      </form>
    </section>
  );
}
