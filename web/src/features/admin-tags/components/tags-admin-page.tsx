import { useState } from 'react';
import { useI18n } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import { useTopics } from '../../../lib/topics';
import { ErrorState, Loading, errorMessage, latestError } from '../../../lib/ui';
import { useTagGroups, useTagWrites } from '../api/tags';
import { GroupBoard } from './group-board';
import { NewGroupForm } from './new-group-form';
import { SuggestionsPanel } from './suggestions-panel';

export default function TagsAdminPage() {
  const { t } = useI18n();
  const topics = useTopics();
  const [chosen, setChosen] = useState<string>('');
  const [similar, setSimilar] = useState(false);
  const topicId = chosen || topics.data?.[0]?.id;
  const groups = useTagGroups(topicId, similar);
  const writes = useTagWrites();
  // an error stays shown until the next write, not after a later one succeeded
  const failed = latestError(Object.values(writes));

  return (
    <section className="tags-page">
      <h1>{t('admin.tags.title')}</h1>
      <div className="toolbar">
        <TopicSelect
          label={t('articles.topic')}
          value={topicId ?? ''}
          onChange={(e) => setChosen(e.target.value)}
          testId="tags-topic"
        />
        <label className="checkbox">
          <input type="checkbox" checked={similar} onChange={(e) => setSimilar(e.target.checked)} />
          {t('admin.tags.similar')}
        </label>
      </div>
      {failed != null && (
        <p className="form-error" role="alert">
          {errorMessage(failed, t('common.error'))}
        </p>
      )}
      {topicId && <NewGroupForm topicId={topicId} writes={writes} />}
      {topicId && <SuggestionsPanel topicId={topicId} writes={writes} />}
      <p className="field-label">{t('admin.tags.dragHint')}</p>
      {groups.isLoading ? (
        <Loading />
      ) : groups.isError ? (
        <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />
      ) : (
        <GroupBoard groups={groups.data ?? []} writes={writes} />
      )}
    </section>
  );
}
