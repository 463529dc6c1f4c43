import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import type { TagGroup, TagRow, TagWrites } from '../api/tags';
import { useTagsText } from '../use-tags-text';

/** Rename a tag or move it to another group (the name is normalized by the server). */
export function TagEditDialog({
  tag,
  groups,
  writes,
  onClose,
}: {
  tag: TagRow;
  groups: TagGroup[];
  writes: TagWrites;
  onClose(): void;
}) {
  const { t } = useTagsText();
  const common = useI18n().t;
  const ref = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(tag.name);
  const [groupId, setGroupId] = useState(tag.tag_group_id ?? '');
  const { reset } = writes.updateTag;
  useEffect(() => {
    reset();
    ref.current?.showModal();
  }, [reset]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: { id: string; name?: string; tag_group_id?: string | null } = { id: tag.id };
    if (name.trim() && name.trim() !== tag.name) body.name = name.trim();
    if (groupId !== (tag.tag_group_id ?? '')) body.tag_group_id = groupId || null;
    if (Object.keys(body).length === 1) return ref.current?.close();
    writes.updateTag.mutate(body, { onSuccess: () => ref.current?.close() });
  };

  return (
    <dialog
      ref={ref}
      className="dialog"
      onClose={onClose}
      aria-labelledby="tag-edit-title"
      data-testid="tag-edit"
    >
      <h2 id="tag-edit-title">{t('tags.editTitle', { name: tag.name })}</h2>
      <form className="form" onSubmit={submit}>
        <label>
          {t('tags.name')}
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} />
        </label>
        <label>
          {t('tags.group')}
          <select value={groupId} onChange={(e) => setGroupId(e.target.value)}>
            {groups.map((g) => (
              <option key={g.id} value={g.id!}>
                {g.display_name}
              </option>
            ))}
            <option value="">{t('tags.ungrouped')}</option>
          </select>
        </label>
        {writes.updateTag.error != null && (
          <p className="form-error" role="alert">
            {errorMessage(writes.updateTag.error, common('common.error'))}
          </p>
        )}
        <div className="row">
          <button type="submit" className="primary" disabled={writes.updateTag.isPending}>
            {t('tags.save')}
          </button>
          <button type="button" onClick={() => ref.current?.close()}>
            {t('tags.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
