import { Pencil, X } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { IconButton } from '../../../lib/ui';
import type { Tag, TagGroup, TagWrites } from '../api/tags';
import { GroupOptions } from './group-options';

interface Props {
  tag: Tag;
  /** the group the tag is in (null: Ungrouped) */
  groupId: string | null;
  groups: TagGroup[];
  writes: TagWrites;
  selected: boolean;
  onToggle(): void;
}

/** One tag: select it for a batch move, move it, rename it, or delete it after a confirmation. */
export function TagRow({ tag, groupId, groups, writes, selected, onToggle }: Props) {
  const { t } = useI18n();
  const rename = () => {
    const next = window.prompt(`${t('admin.tags.renameTag')}: ${tag.name}`, tag.name)?.trim();
    if (next && next !== tag.name) writes.renameTag.mutate({ id: tag.id, name: next });
  };
  const remove = () => {
    const count = tag.article_count ?? 0;
    if (window.confirm(t('admin.tags.confirmDeleteTag', { name: tag.name, count })))
      writes.deleteTag.mutate(tag.id);
  };
  return (
    <li className="tag-row" data-tag-name={tag.name} data-tag-id={tag.id}>
      <label>
        <input type="checkbox" checked={selected} onChange={onToggle} />
        {tag.name}
        {typeof tag.article_count === 'number' && (
          <small className="muted">{t('admin.tags.articles', { count: tag.article_count })}</small>
        )}
      </label>
      <span className="group-actions">
        <select
          aria-label={`${t('admin.tags.moveTo')}: ${tag.name}`}
          value={groupId ?? ''}
          onChange={(e) => writes.moveTag.mutate({ id: tag.id, tag_group_id: e.target.value || null })}
        >
          <GroupOptions groups={groups} />
        </select>
        <IconButton label={`${t('admin.tags.renameTag')}: ${tag.name}`} onClick={rename}>
          <Pencil size={14} aria-hidden="true" />
        </IconButton>
        <IconButton label={`${t('admin.tags.deleteTag')}: ${tag.name}`} onClick={remove} danger>
          <X size={14} aria-hidden="true" />
        </IconButton>
      </span>
    </li>
  );
}
