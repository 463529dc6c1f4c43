import { useI18n } from '../../../lib/i18n';
import type { Topic } from '../api/catalog';
import { CrudSection, NameField } from './crud-section';

export function TopicsSection() {
  const { t } = useI18n();
  return (
    <CrudSection<Topic>
      resource="topics"
      title={t('admin.catalog.topics')}
      columns={[t('admin.catalog.name'), t('admin.catalog.description')]}
      cells={(topic) => [topic.name, topic.description]}
      toggle={{ label: t('admin.catalog.active'), field: 'is_active' }}
      toBody={(f) => ({
        name: String(f.get('name')),
        description: String(f.get('description') ?? '') || null,
      })}
      edit={{
        fields: (topic) => (
          <>
            <NameField defaultValue={topic.name} />
            <label>
              {t('admin.catalog.description')}
              <input name="description" maxLength={2000} defaultValue={topic.description ?? ''} />
            </label>
          </>
        ),
        toPatch: (f) => ({
          name: String(f.get('name')),
          description: String(f.get('description') ?? '').trim() || null,
        }),
      }}
      fields={
        <>
          <NameField />
          <label>
            {t('admin.catalog.description')}
            <input name="description" maxLength={2000} />
          </label>
        </>
      }
    />
  );
}
