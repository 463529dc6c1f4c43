import { useState, type FormEvent } from 'react';
import { ArrowDown, ArrowUp, Merge, Pencil, Trash2 } from 'lucide-react';
import { ConfirmDialog, Dialog } from '../../../lib/dialog';
import { useI18n, useT } from '../../../lib/i18n';
import { IconButton, errorMessage } from '../../../lib/ui';
import type { TagGroup, TagWrites } from '../api/tags';
import { tagsMessages } from '../messages';

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
  const { t } = useT(tagsMessages);
  const isVirtual = group.id === null;
  const title = isVirtual ? t('tags.ungrouped') : group.display_name;
  const count = group.tag_count ?? group.tags.length;

  const common = useI18n().t;
  const [open, setOpen] = useState<'rename' | 'delete' | null>(null);
  const [name, setName] = useState('');
  const rename = (e: FormEvent) => {
    e.preventDefault();
    const next = name.trim();
    if (!next || next === group.display_name) return setOpen(null);
    writes.updateGroup.mutate(
      { id: group.id!, display_name: next, name: next },
      { onSuccess: () => setOpen(null) },
    );
  };
  const ask = (what: 'rename' | 'delete') => {
    writes.updateGroup.reset();
    writes.deleteGroup.reset();
    setName(group.display_name);
    setOpen(what);
  };
  const failed = open === 'rename' ? writes.updateGroup.error : writes.deleteGroup.error;
  const failure = failed ? errorMessage(failed, common('common.error')) : null;

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
            <IconButton label={t('tags.groups.rename')} onClick={() => ask('rename')}>
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
            <IconButton label={t('tags.groups.delete')} onClick={() => ask('delete')} danger>
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
        <span data-testid="group-tag-count">{t('tags.count', { count })}</span>{' '}
        <button type="button" className="link-button" onClick={onShowTags} disabled={count === 0}>
          {t('tags.groups.showTags')}
        </button>
      </p>
      {open === 'rename' && (
        <Dialog title={`${t('tags.groups.rename')}: ${title}`} onClose={() => setOpen(null)} size="narrow">
          <form className="form" onSubmit={rename} data-testid="group-rename">
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
            {failure && (
              <p className="form-error" role="alert">
                {failure}
              </p>
            )}
            <div className="row">
              <button type="submit" className="primary" disabled={writes.updateGroup.isPending}>
                {t('tags.save')}
              </button>
              <button type="button" onClick={() => setOpen(null)}>
                {t('tags.cancel')}
              </button>
            </div>
          </form>
        </Dialog>
      )}
      {open === 'delete' && (
        <ConfirmDialog
          title={`${t('tags.groups.delete')}: ${title}`}
          confirmLabel={common('common.delete')}
          danger
          pending={writes.deleteGroup.isPending}
          error={failure}
          onConfirm={() => writes.deleteGroup.mutate(group.id!, { onSuccess: () => setOpen(null) })}
          onClose={() => setOpen(null)}
          testId="group-delete-confirm"
        >
          <p>{t('tags.groups.confirmDelete')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
