import { useState } from 'react';
import type { TagGroup, TagRow } from '../api/tags';
import { useT } from '../../../lib/i18n';
import { tagsMessages } from '../messages';
import type { BulkAction } from './bulk-preview-dialog';

interface Props {
  selected: Map<string, TagRow>;
  groups: TagGroup[];
  onClear(): void;
  onAction(action: BulkAction): void;
}

/** What can be done with the selected tags: move them to a group, or merge them into one of them. */
export function BulkBar({ selected, groups, onClear, onAction }: Props) {
  const { t } = useT(tagsMessages);
  const tags = [...selected.values()].sort(
    (a, b) => b.article_count - a.article_count || a.name.localeCompare(b.name),
  );
  const [moveTo, setMoveTo] = useState(groups[0]?.id ?? '');
  const [chosen, setChosen] = useState('');
  // the target defaults to the selected tag with the most articles
  const target = tags.find((x) => x.id === chosen) ?? tags[0]!;
  const canMerge = tags.length >= 2;

  return (
    <section className="bulk-bar card" aria-label={t('tags.bulk')} data-testid="bulk-bar">
      <strong aria-live="polite">{t('tags.selected', { count: tags.length })}</strong>
      <div className="bulk-group">
        <label>
          <span className="field-label">{t('tags.moveTo')}</span>
          <select value={moveTo} onChange={(e) => setMoveTo(e.target.value)} data-testid="bulk-move-target">
            {groups.map((g) => (
              <option key={g.id} value={g.id!}>
                {g.display_name}
              </option>
            ))}
            <option value="">{t('tags.ungrouped')}</option>
          </select>
        </label>
        <button
          type="button"
          onClick={() =>
            onAction({
              kind: 'move',
              tagIds: tags.map((x) => x.id),
              groupId: moveTo || null,
              groupName: groups.find((g) => g.id === moveTo)?.display_name ?? t('tags.ungrouped'),
            })
          }
        >
          {t('tags.moveButton')}
        </button>
      </div>
      <div className="bulk-group">
        <label>
          <span className="field-label">{t('tags.mergeInto')}</span>
          <select
            value={target.id}
            onChange={(e) => setChosen(e.target.value)}
            disabled={!canMerge}
            data-testid="bulk-merge-target"
          >
            {tags.map((x) => (
              <option key={x.id} value={x.id}>
                {x.name} ({x.group_name ?? t('tags.ungrouped')},{' '}
                {t('tags.articles', { count: x.article_count })})
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="primary"
          disabled={!canMerge}
          aria-describedby={canMerge ? undefined : 'merge-needs-two'}
          onClick={() =>
            onAction({
              kind: 'merge',
              sourceIds: tags.filter((x) => x.id !== target.id).map((x) => x.id),
              targetId: target.id,
              targetName: target.name,
            })
          }
        >
          {t('tags.mergeButton')}
        </button>
        {!canMerge && (
          <small id="merge-needs-two" className="muted">
            {t('tags.mergeNeedsTwo')}
          </small>
        )}
      </div>
      <button type="button" onClick={onClear}>
        {t('tags.clearSelection')}
      </button>
    </section>
  );
}
