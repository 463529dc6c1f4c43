import { useI18n } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import { useTopics } from '../../../lib/topics';
import type { Source } from '../api/catalog';
import { CrudSection, NameField } from './crud-section';

export function SourcesSection() {
  const { t } = useI18n();
  const topics = useTopics();
  const topicName = (id: string) => topics.data?.find((x) => x.id === id)?.name ?? id;
  return (
    <CrudSection<Source>
      resource="sources"
      title={t('admin.catalog.sources')}
      columns={[
        t('admin.catalog.name'),
        t('articles.topic'),
        t('admin.catalog.kind'),
        t('admin.catalog.url'),
      ]}
      cells={(s) => [
        <>
          {s.name}
          {s.last_error && <small className="form-error"> {s.last_error}</small>}
        </>,
        topicName(s.topic_id),
        s.kind,
        <span className="url-cell">{s.url}</span>,
      ]}
      toggle={{ label: t('admin.catalog.enabled'), field: 'enabled' }}
      toBody={(f) => ({
        topic_id: String(f.get('topic_id')),
        name: String(f.get('name')),
        kind: String(f.get('kind')),
        url: String(f.get('url')),
      })}
      fields={
        <>
          <TopicSelect label={t('articles.topic')} plainLabel name="topic_id" required />
          <NameField />
          <label>
            {t('admin.catalog.kind')}
            <select name="kind">
              <option value="rss">RSS / Atom / JSON Feed</option>
              <option value="arxiv">arXiv</option>
            </select>
          </label>
          <label>
            {t('admin.catalog.url')}
            <input name="url" type="url" required pattern="https?://.+" />
          </label>
        </>
      }
    />
  );
}
