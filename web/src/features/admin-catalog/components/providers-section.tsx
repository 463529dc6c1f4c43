import { useI18n } from '../../../lib/i18n';
import type { Provider } from '../api/catalog';
import { CrudSection, NameField } from './crud-section';

export function ProvidersSection() {
  const { t } = useI18n();
  return (
    <CrudSection<Provider>
      resource="providers"
      title={t('admin.catalog.providers')}
      columns={[
        t('admin.catalog.name'),
        t('admin.catalog.type'),
        t('admin.catalog.model'),
        t('admin.catalog.baseUrl'),
      ]}
      cells={(p) => (
        <>
          <td>
            {p.name} {p.has_api_key && <span className="badge">{t('admin.catalog.hasKey')}</span>}
          </td>
          <td>{p.type}</td>
          <td>
            {p.model}
            {p.image_model ? ` / ${p.image_model}` : ''}
          </td>
          <td>{p.base_url}</td>
        </>
      )}
      toggle={{ label: t('admin.catalog.active'), field: 'is_active' }}
      toBody={(f) => {
        const opt = (k: string) => String(f.get(k) ?? '').trim() || null;
        return {
          name: String(f.get('name')),
          type: String(f.get('type')),
          base_url: String(f.get('base_url')),
          model: String(f.get('model')),
          image_model: opt('image_model'),
          api_key: opt('api_key'),
          is_active: true,
        };
      }}
      fields={
        <>
          <NameField />
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
        </>
      }
    />
  );
}
