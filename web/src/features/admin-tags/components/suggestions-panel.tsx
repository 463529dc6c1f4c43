import { Check, X } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { ErrorState, Loading } from '../../../lib/ui';
import { useSuggestions, type TagWrites } from '../api/tags';

export function SuggestionsPanel({ topicId, writes }: { topicId: string; writes: TagWrites }) {
  const { t } = useI18n();
  const { user } = useSession();
  const list = useSuggestions(topicId);
  const ungrouped = t('admin.tags.ungrouped');
  return (
    <section className="card admin-section" aria-labelledby="suggestions-title" data-testid="suggestions">
      <h2 id="suggestions-title">{t('admin.tags.suggestions')}</h2>
      {list.isLoading ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data?.length === 0 ? (
        <p className="state state-empty">{t('admin.tags.noSuggestions')}</p>
      ) : (
        <ul className="subscription-list">
          {list.data?.map((s) => (
            <li key={s.id} data-suggestion-id={s.id}>
              <span>
                {t('admin.tags.suggestion', {
                  newTag: s.new_tag.name,
                  newGroup: s.new_tag.group ?? ungrouped,
                  existingTag: s.existing_tag.name,
                  existingGroup: s.existing_tag.group ?? ungrouped,
                  score: s.similarity_score.toFixed(2),
                })}
              </span>
              <span className="group-actions">
                <button
                  type="button"
                  disabled={!user || writes.resolve.isPending}
                  onClick={() =>
                    writes.resolve.mutate({ id: s.id, action: 'approve', resolved_by: user!.id })
                  }
                >
                  <Check size={16} aria-hidden="true" /> {t('admin.tags.approve')}
                </button>
                <button
                  type="button"
                  disabled={!user || writes.resolve.isPending}
                  onClick={() => writes.resolve.mutate({ id: s.id, action: 'reject', resolved_by: user!.id })}
                >
                  <X size={16} aria-hidden="true" /> {t('admin.tags.reject')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
