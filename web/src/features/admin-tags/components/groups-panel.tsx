import { useState } from 'react';
import { ErrorState, Loading } from '../../../lib/ui';
import { useGroupList, type TagWrites } from '../api/tags';
import { useT } from '../../../lib/i18n';
import { tagsMessages } from '../messages';
import { GroupBoard } from './group-board';
import { NewGroupForm } from './new-group-form';

/** The topic's groups: create, order (drag or arrows), colour, rename, merge, delete. */
export function GroupsPanel({
  topicId,
  writes,
  onShowTags,
}: {
  topicId: string;
  writes: TagWrites;
  onShowTags(groupId: string): void;
}) {
  const { t } = useT(tagsMessages);
  const [similar, setSimilar] = useState(false);
  const groups = useGroupList(topicId, similar);
  return (
    <>
      <NewGroupForm topicId={topicId} writes={writes} />
      <div className="toolbar">
        <label className="checkbox">
          <input type="checkbox" checked={similar} onChange={(e) => setSimilar(e.target.checked)} />
          {t('tags.groups.similar')}
        </label>
      </div>
      <p className="field-label">{t('tags.groups.hint')}</p>
      {groups.isLoading ? (
        <Loading />
      ) : groups.isError ? (
        <ErrorState error={groups.error} onRetry={() => void groups.refetch()} />
      ) : (
        <GroupBoard groups={groups.data ?? []} writes={writes} onShowTags={onShowTags} />
      )}
    </>
  );
}
