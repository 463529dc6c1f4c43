import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useI18n, useT } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import { useTopics } from '../../../lib/topics';
import { errorMessage, latestError } from '../../../lib/ui';
import { useSuggestionPage, useTagWrites } from '../api/tags';
import { tagsMessages } from '../messages';
import { GroupsPanel } from './groups-panel';
import { SuggestionsPanel } from './suggestions-panel';
import { TagTable } from './tag-table';
import '../tags.css';

const TABS = ['tags', 'groups', 'suggestions'] as const;
type Tab = (typeof TABS)[number];

/**
 * The tags page: a paged, searchable, sortable table of a topic's tags with bulk move and merge;
 * the groups (order, colours, group merges); the pending suggestions. Tab, topic, search, filter,
 * sort and page live in the address, so a reload or a shared link shows the same view.
 */
export default function TagsAdminPage() {
  const { t } = useT(tagsMessages);
  const common = useI18n().t;
  const topics = useTopics();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as Tab)
    : 'tags';
  const topicId = params.get('topic') || topics.data?.[0]?.id;
  const writes = useTagWrites();
  const [notice, setNotice] = useState('');
  // an error stays shown until the next write, not after a later one succeeded
  const failed = latestError(Object.values(writes));
  const pending = useSuggestionPage(topicId, 0);

  const update = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const selectTab = (next: Tab) => {
    update({ tab: next === 'tags' ? null : next });
    document.getElementById(`tags-tab-${next}`)?.focus();
  };

  return (
    <section className="tags-page">
      <h1>{t('tags.title')}</h1>
      <div className="toolbar">
        <TopicSelect
          label={t('tags.topic')}
          value={topicId ?? ''}
          onChange={(e) => update({ topic: e.target.value, q: null, group: null, page: null })}
          testId="tags-topic"
        />
      </div>
      {failed != null && (
        <p className="form-error" role="alert">
          {errorMessage(failed, common('common.error'))}
        </p>
      )}
      <p className="tags-notice" role="status">
        {notice}
      </p>
      <div role="tablist" aria-label={t('tags.title')} className="tags-tabs">
        {TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tags-tab-${id}`}
            aria-selected={id === tab}
            aria-controls={`tags-panel-${id}`}
            tabIndex={id === tab ? 0 : -1}
            onClick={() => selectTab(id)}
            onKeyDown={(e) => {
              const i = TABS.indexOf(id);
              if (e.key === 'ArrowRight') selectTab(TABS[(i + 1) % TABS.length]!);
              if (e.key === 'ArrowLeft') selectTab(TABS[(i + TABS.length - 1) % TABS.length]!);
            }}
          >
            {id === 'suggestions' && pending.data?.total
              ? t('tags.tab.suggestionsCount', { count: pending.data.total })
              : t(`tags.tab.${id}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`tags-panel-${tab}`} aria-labelledby={`tags-tab-${tab}`}>
        {topicId && tab === 'tags' && (
          <TagTable topicId={topicId} params={params} update={update} writes={writes} onNotice={setNotice} />
        )}
        {topicId && tab === 'groups' && (
          <GroupsPanel
            topicId={topicId}
            writes={writes}
            onShowTags={(groupId) => update({ tab: null, group: groupId, page: null, q: null })}
          />
        )}
        {topicId && tab === 'suggestions' && <SuggestionsPanel topicId={topicId} writes={writes} />}
      </div>
    </section>
  );
}
