import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useI18n, useT } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import { useTopics } from '../../../lib/topics';
import type { SourceRow, useSourceWrites } from '../api/sources';
import { catalogMessages } from '../messages';
import { sourceMessages } from '../source-messages';
import { KindAndIntervalFields } from './source-create-form';

type Update = ReturnType<typeof useSourceWrites>['update'];

/**
 * Editing a source: name, address, topic, kind and fetch interval. A new address is checked like a
 * new source; when it is refused as no feed, "Save anyway" appears.
 */
export function SourceEditForm({
  source,
  update,
  onDone,
}: {
  source: SourceRow;
  update: Update;
  onDone(): void;
}) {
  const { t } = useI18n();
  const catalog = useT(catalogMessages);
  const text = useT(sourceMessages);
  const [force, setForce] = useState(false);
  // a source of an inactive topic keeps it: the select lists active topics only
  const topicListed = useTopics().data?.some((x) => x.id === source.topic_id) ?? false;
  const refused =
    update.variables?.id === source.id &&
    update.error instanceof ApiError &&
    update.error.code === 'source_not_a_feed';
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    update.mutate(
      {
        id: source.id,
        name: String(f.get('name')).trim(),
        url: String(f.get('url')).trim(),
        ...(topicListed ? { topic_id: String(f.get('topic_id')) } : {}),
        kind: String(f.get('kind')),
        fetch_interval_minutes: Number(f.get('fetch_interval_minutes')),
        ...(force ? { force: true } : {}),
      },
      { onSuccess: onDone },
    );
  };
  const label = catalog.t('editing', { name: source.name });
  return (
    <form className="row" onSubmit={submit} aria-label={label}>
      <label>
        {text.t('name')}
        <input name="name" required maxLength={120} defaultValue={source.name} />
      </label>
      <label className="grow">
        {t('admin.catalog.url')}
        <input name="url" type="url" required pattern="https?://.+" defaultValue={source.url} />
      </label>
      {topicListed && (
        <TopicSelect
          label={t('articles.topic')}
          plainLabel
          name="topic_id"
          required
          defaultValue={source.topic_id}
        />
      )}
      <KindAndIntervalFields kind={source.kind} interval={source.fetch_interval_minutes} />
      {refused && (
        <label className="checkbox">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
          {text.t('saveAnyway')}
        </label>
      )}
      <button type="submit" disabled={update.isPending}>
        {catalog.t('save')}
      </button>
      <button type="button" onClick={onDone}>
        {catalog.t('cancel')}
      </button>
    </form>
  );
}
