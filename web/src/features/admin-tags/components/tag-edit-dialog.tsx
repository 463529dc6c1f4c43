import { useEffect, useState, type FormEvent } from 'react';
import { Dialog } from '../../../lib/dialog';
import { useI18n, useT } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/ui';
import type { TagGroup, TagRow, TagWrites } from '../api/tags';
import { tagsMessages } from '../messages';

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
  const { t } = useT(tagsMessages);
  const common = useI18n().t;
  const [name, setName] = useState(tag.name);
  const [groupId, setGroupId] = useState(tag.tag_group_id ?? '');
  const { reset } = writes.updateTag;
  useEffect(() => reset(), [reset]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: { id: string; name?: string; tag_group_id?: string | null } = { id: tag.id };
    if (name.trim() && name.trim() !== tag.name) body.name = name.trim();
    if (groupId !== (tag.tag_group_id ?? '')) body.tag_group_id = groupId || null;
    if (Object.keys(body).length === 1) return onClose();
    writes.updateTag.mutate(body, { onSuccess: onClose });
  };

  return (
    <Dialog title={t('tags.editTitle', { name: tag.name })} onClose={onClose} testId="tag-edit">
      <form className="form" onSubmit={submit}>
        <label>
          {t('tags.name')}
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={120}
            data-autofocus
          />
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
          <button type="button" onClick={onClose}>
            {t('tags.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
