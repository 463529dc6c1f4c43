import { useState } from 'react';
import { Dialog } from '../../../lib/dialog';
import { useGroupDetail, type TagGroup, type TagWrites } from '../api/tags';
import { useT } from '../../../lib/i18n';
import { tagsMessages } from '../messages';

/**
 * Merge `source` into another group (or a new one), previewing the tags the result will hold (both
 * groups' tags are read when the dialog opens: the board lists groups without their tags).
 */
export function MergeDialog({
  source,
  groups,
  writes,
  onClose,
}: {
  source: TagGroup;
  groups: TagGroup[];
  writes: TagWrites;
  onClose(): void;
}) {
  const { t } = useT(tagsMessages);
  const others = groups.filter((g) => g.id !== source.id);
  const [targetId, setTargetId] = useState(others[0]?.id ?? '');
  const [resultName, setResultName] = useState('');
  const target = others.find((g) => g.id === targetId);
  const sourceTags = useGroupDetail(source.id ?? undefined).data?.tags ?? [];
  const targetTags = useGroupDetail(targetId || undefined).data?.tags ?? [];

  const names = new Map<string, { name: string; from: string[] }>();
  const sides = [{ name: source.display_name, tags: sourceTags }];
  if (target) sides.push({ name: target.display_name, tags: targetTags });
  for (const side of sides) {
    for (const tag of side.tags) {
      const entry = names.get(tag.name) ?? { name: tag.name, from: [] };
      entry.from.push(side.name);
      names.set(tag.name, entry);
    }
  }

  const submit = () =>
    writes.merge.mutate(
      {
        source_group_id: source.id!,
        ...(targetId ? { target_group_id: targetId } : {}),
        ...(resultName.trim()
          ? { result_name: resultName.trim(), result_display_name: resultName.trim() }
          : {}),
      },
      { onSuccess: onClose },
    );

  return (
    <Dialog
      title={`${t('tags.groups.merge')}: ${source.display_name}`}
      onClose={onClose}
      testId="merge-dialog"
    >
      <div className="form">
        <label>
          {t('tags.groups.mergeInto')}
          <select value={targetId} onChange={(e) => setTargetId(e.target.value)} data-testid="merge-target">
            {others.map((g) => (
              <option key={g.id} value={g.id!}>
                {g.display_name}
              </option>
            ))}
            <option value="">{t('tags.groups.mergeNew')}</option>
          </select>
        </label>
        <label>
          {t('tags.groups.resultName')}
          <input
            value={resultName}
            onChange={(e) => setResultName(e.target.value)}
            placeholder={target?.display_name ?? source.display_name}
          />
        </label>
        <section aria-labelledby="merge-preview">
          <h3 id="merge-preview">{t('tags.groups.mergePreview')}</h3>
          <ul data-testid="merge-preview-list">
            {[...names.values()].map((n) => (
              <li key={n.name}>
                {n.name}
                {n.from.length > 1 && <small className="muted"> ({n.from.join(' + ')})</small>}
              </li>
            ))}
          </ul>
        </section>
        <div className="row">
          <button type="button" className="primary" onClick={submit} disabled={writes.merge.isPending}>
            {t('tags.groups.mergeConfirm')}
          </button>
          <button type="button" onClick={onClose}>
            {t('tags.cancel')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
