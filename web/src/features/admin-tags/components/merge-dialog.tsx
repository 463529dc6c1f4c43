import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../../lib/i18n';
import type { TagGroup, TagWrites } from '../api/tags';

/** Merge `source` into another group (or a new one), previewing the tags the result will hold. */
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
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  const others = groups.filter((g) => g.id !== source.id);
  const [targetId, setTargetId] = useState(others[0]?.id ?? '');
  const [resultName, setResultName] = useState('');
  const target = others.find((g) => g.id === targetId);

  useEffect(() => {
    ref.current?.showModal();
  }, []);

  const names = new Map<string, { name: string; from: string[] }>();
  for (const g of [source, ...(target ? [target] : [])]) {
    for (const tag of g.tags) {
      const entry = names.get(tag.name) ?? { name: tag.name, from: [] };
      entry.from.push(g.display_name);
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
    <dialog
      ref={ref}
      className="dialog"
      onClose={onClose}
      aria-labelledby="merge-title"
      data-testid="merge-dialog"
    >
      <h2 id="merge-title">
        {t('admin.tags.merge')}: {source.display_name}
      </h2>
      <div className="form">
        <label>
          {t('admin.tags.mergeInto')}
          <select value={targetId} onChange={(e) => setTargetId(e.target.value)} data-testid="merge-target">
            {others.map((g) => (
              <option key={g.id} value={g.id!}>
                {g.display_name}
              </option>
            ))}
            <option value="">{t('admin.tags.mergeNew')}</option>
          </select>
        </label>
        <label>
          {t('admin.tags.resultName')}
          <input
            value={resultName}
            onChange={(e) => setResultName(e.target.value)}
            placeholder={target?.display_name ?? source.display_name}
          />
        </label>
        <section aria-labelledby="merge-preview">
          <h3 id="merge-preview">{t('admin.tags.mergePreview')}</h3>
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
            {t('admin.tags.mergeConfirm')}
          </button>
          <button type="button" onClick={() => ref.current?.close()}>
            {t('common.cancel')}
          </button>
        </div>
      </div>
    </dialog>
  );
}
