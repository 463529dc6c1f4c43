import type { FormEvent } from 'react';
import { useI18n } from '../../../lib/i18n';
import { useTopics } from '../../../lib/topics';
import { ErrorState, Loading } from '../../../lib/ui';
import { useAdminList, useAdminWrite, type Source } from '../api/catalog';
import { WriteError } from './write-error';

export function SourcesSection() {
  const { t } = useI18n();
  const list = useAdminList<Source>('sources');
  const topics = useTopics();
  const { create, update, remove } = useAdminWrite('sources');
  const topicName = (id: string) => topics.data?.find((x) => x.id === id)?.name ?? id;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    create.mutate(
      {
        topic_id: String(f.get('topic_id')),
        name: String(f.get('name')),
        kind: String(f.get('kind')),
        url: String(f.get('url')),
      },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <section className="admin-section card" aria-labelledby="sources-title">
      <h2 id="sources-title">{t('admin.catalog.sources')}</h2>
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
                <th>{t('articles.topic')}</th>
                <th>{t('admin.catalog.kind')}</th>
                <th>{t('admin.catalog.url')}</th>
                <th>{t('admin.catalog.enabled')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.data?.map((s) => (
                <tr key={s.id}>
                  <td>
                    {s.name}
                    {s.last_error && <small className="form-error"> {s.last_error}</small>}
                  </td>
                  <td>{topicName(s.topic_id)}</td>
                  <td>{s.kind}</td>
                  <td className="url-cell">{s.url}</td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${t('admin.catalog.enabled')}: ${s.name}`}
                      checked={s.enabled}
                      onChange={(e) => update.mutate({ id: s.id, enabled: e.target.checked })}
                    />
                  </td>
                  <td>
                    <button type="button" className="danger" onClick={() => remove.mutate(s.id)}>
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
          {t('articles.topic')}
          <select name="topic_id" required>
            {topics.data?.map((topic) => (
              <option key={topic.id} value={topic.id}>
                {topic.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('admin.catalog.name')}
          <input name="name" required maxLength={120} />
        </label>
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
        <button type="submit" disabled={create.isPending}>
          {t('common.create')}
        </button>
      </form>
    </section>
  );
}
