import type { FormEvent } from 'react';
import type { TagWrites } from '../api/tags';
import { useT } from '../../../lib/i18n';
import { clearIfUnchanged, sentForm } from '../../../lib/forms';
import { tagsMessages } from '../messages';

export function NewGroupForm({ topicId, writes }: { topicId: string; writes: TagWrites }) {
  const { t } = useT(tagsMessages);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const sent = sentForm(form);
    const display = String(f.get('display_name')).trim();
    writes.createGroup.mutate(
      {
        topic_id: topicId,
        name: display,
        display_name: display,
        color_hex: String(f.get('color_hex')),
        ...(String(f.get('description') ?? '').trim()
          ? { description: String(f.get('description')).trim() }
          : {}),
      },
      { onSuccess: () => clearIfUnchanged(form, sent) },
    );
  };
  return (
    <form className="row card admin-section" onSubmit={submit} aria-label={t('tags.groups.new')}>
      <label>
        {t('tags.groups.displayName')}
        <input name="display_name" required maxLength={100} />
      </label>
      <label>
        {t('tags.groups.description')}
        <input name="description" maxLength={500} />
      </label>
      <label>
        {t('tags.groups.color')}
        <input name="color_hex" type="color" defaultValue="#4f46e5" />
      </label>
      <button type="submit" disabled={writes.createGroup.isPending}>
        {t('tags.groups.new')}
      </button>
    </form>
  );
}
