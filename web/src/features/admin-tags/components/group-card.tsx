import { ArrowDown, ArrowUp, Merge, Pencil, Trash2 } from 'lucide-react';
import { IconButton } from '../../../lib/ui';
import type { TagGroup, TagWrites } from '../api/tags';
import { useTagsText } from '../use-tags-text';

interface Props {
  group: TagGroup;
  writes: TagWrites;
  onShowTags(): void;
  onMerge?(): void;
  onUp?(): void;
  onDown?(): void;
}

/** One group: its name, colour and tag count; its tags are listed in the table, filtered by it. */
export function GroupCard({ group, writes, onShowTags, onMerge, onUp, onDown }: Props) {
  const { t, n } = useTagsText();
  const isVirtual = group.id === null;
  const title = isVirtual ? t('tags.ungrouped') : group.display_name;
  const count = group.tag_count ?? group.tags.length;

  const rename = () => {
    const next = window.prompt(t('tags.groups.rename'), group.display_name)?.trim();
    if (next && next !== group.display_name)
      writes.updateGroup.mutate({ id: group.id!, display_name: next, name: next });
  };
  const remove = () => {
    if (window.confirm(t('tags.groups.confirmDelete'))) writes.deleteGroup.mutate(group.id!);
  };

  return (
    <section
      className="card group"
      style={{ ['--group-color' as string]: group.color_hex ?? undefined }}
      data-group-id={group.id ?? 'ungrouped'}
      data-group-name={group.name}
      aria-label={title}
    >
      <header>
        <h3>{title}</h3>
        {!isVirtual && (
          <div className="group-actions">
            <IconButton label={t('tags.groups.moveUp')} disabled={!onUp} onClick={onUp}>
              <ArrowUp size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label={t('tags.groups.moveDown')} disabled={!onDown} onClick={onDown}>
              <ArrowDown size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label={t('tags.groups.rename')} onClick={rename}>
              <Pencil size={16} aria-hidden="true" />
            </IconButton>
            <label className="icon-button" title={t('tags.groups.color')}>
              <span className="visually-hidden">{t('tags.groups.color')}</span>
              <input
                type="color"
                value={group.color_hex ?? '#888888'}
                onChange={(e) => writes.updateGroup.mutate({ id: group.id!, color_hex: e.target.value })}
                style={{ width: 24, height: 24, padding: 0, border: 'none' }}
              />
            </label>
            <IconButton label={t('tags.groups.merge')} onClick={onMerge} testId="merge">
              <Merge size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label={t('tags.groups.delete')} onClick={remove} danger>
              <Trash2 size={16} aria-hidden="true" />
            </IconButton>
          </div>
        )}
      </header>
      {group.description && <p className="meta">{group.description}</p>}
      {group.similar_groups && group.similar_groups.length > 0 && (
        <p className="meta" data-testid="similar">
          {t('tags.groups.similarTo', {
            names: group.similar_groups.map((s) => s.display_name ?? s.name).join(', '),
          })}
        </p>
      )}
      <p className="group-count">
        <span data-testid="group-tag-count">{n('tags.count', count)}</span>{' '}
        <button type="button" className="link-button" onClick={onShowTags} disabled={count === 0}>
          {t('tags.groups.showTags')}
        </button>
      </p>
    </section>
  );
}
