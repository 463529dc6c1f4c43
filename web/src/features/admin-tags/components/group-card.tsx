import { ArrowDown, ArrowUp, Merge, Pencil, Trash2 } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { IconButton } from '../../../lib/ui';
import type { TagGroup, TagWrites } from '../api/tags';
import { TagRow } from './tag-row';

interface Props {
  group: TagGroup;
  groups: TagGroup[];
  writes: TagWrites;
  selected: Set<string>;
  onToggleTag(id: string): void;
  onMerge?(): void;
  onUp?(): void;
  onDown?(): void;
}

export function GroupCard({ group, groups, writes, selected, onToggleTag, onMerge, onUp, onDown }: Props) {
  const { t } = useI18n();
  const isVirtual = group.id === null;
  const title = isVirtual ? t('admin.tags.ungrouped') : group.display_name;

  const rename = () => {
    const next = window.prompt(t('common.rename'), group.display_name)?.trim();
    if (next && next !== group.display_name)
      writes.updateGroup.mutate({ id: group.id!, display_name: next, name: next });
  };
  const remove = () => {
    if (window.confirm(t('admin.tags.confirmDelete'))) writes.deleteGroup.mutate(group.id!);
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
            <IconButton label={t('admin.tags.moveUp')} disabled={!onUp} onClick={onUp}>
              <ArrowUp size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label={t('admin.tags.moveDown')} disabled={!onDown} onClick={onDown}>
              <ArrowDown size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label={t('common.rename')} onClick={rename}>
              <Pencil size={16} aria-hidden="true" />
            </IconButton>
            <label className="icon-button" title={t('admin.tags.color')}>
              <span className="visually-hidden">{t('admin.tags.color')}</span>
              <input
                type="color"
                value={group.color_hex ?? '#888888'}
                onChange={(e) => writes.updateGroup.mutate({ id: group.id!, color_hex: e.target.value })}
                style={{ width: 24, height: 24, padding: 0, border: 'none' }}
              />
            </label>
            <IconButton label={t('admin.tags.merge')} onClick={onMerge} testId="merge">
              <Merge size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label={t('common.delete')} onClick={remove} danger>
              <Trash2 size={16} aria-hidden="true" />
            </IconButton>
          </div>
        )}
      </header>
      {group.description && <p className="meta">{group.description}</p>}
      {group.similar_groups && group.similar_groups.length > 0 && (
        <p className="meta" data-testid="similar">
          {t('admin.tags.similarTo', {
            names: group.similar_groups.map((s) => s.display_name ?? s.name).join(', '),
          })}
        </p>
      )}
      <ul className="tag-list" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {group.tags.map((tag) => (
          <TagRow
            key={tag.id}
            tag={tag}
            groupId={group.id}
            groups={groups}
            writes={writes}
            selected={selected.has(tag.id)}
            onToggle={() => onToggleTag(tag.id)}
          />
        ))}
      </ul>
    </section>
  );
}
