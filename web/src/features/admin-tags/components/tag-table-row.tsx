import type { KeyboardEvent, Ref } from 'react';
import { Pencil, Trash2 } from 'lucide-react';
import { formatDate } from '../../../lib/format';
import type { TagRow } from '../api/tags';
import { useT } from '../../../lib/i18n';
import { tagsMessages } from '../messages';

interface Props {
  row: TagRow;
  ref: Ref<HTMLTableRowElement>;
  /** the row that holds the table's one tab stop */
  active: boolean;
  selected: boolean;
  onFocus(): void;
  onToggle(range: boolean): void;
  onMove(to: number | 'first' | 'last'): void;
  onEdit(): void;
  onDelete(): void;
}

/** One tag. Only the active row (and its controls) is in the tab order; arrows move between rows. */
export function TagTableRow({
  row,
  ref,
  active,
  selected,
  onFocus,
  onToggle,
  onMove,
  onEdit,
  onDelete,
}: Props) {
  const { t, locale } = useT(tagsMessages);
  const tab = active ? 0 : -1;
  const onKeyDown = (e: KeyboardEvent<HTMLTableRowElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const own = e.target === e.currentTarget;
    const moves: Record<string, number | 'first' | 'last'> = {
      ArrowDown: 1,
      ArrowUp: -1,
      Home: 'first',
      End: 'last',
    };
    if (e.key in moves && (own || e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      onMove(moves[e.key]!);
    } else if (own && e.key === ' ') {
      e.preventDefault();
      onToggle(e.shiftKey);
    } else if (own && e.key === 'Enter') {
      e.preventDefault();
      onEdit();
    }
  };
  return (
    <tr
      ref={ref}
      tabIndex={tab}
      data-selected={selected}
      className={selected ? 'selected' : undefined}
      data-tag-id={row.id}
      data-tag-name={row.name}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
    >
      <td className="select-cell">
        <input
          type="checkbox"
          tabIndex={tab}
          checked={selected}
          aria-label={t('tags.selectTag', { name: row.name })}
          onChange={(e) => onToggle((e.nativeEvent as MouseEvent).shiftKey === true)}
        />
      </td>
      <td data-label={t('tags.col.name')} className="tag-name">
        {row.name}
      </td>
      <td data-label={t('tags.col.group')} className="group-cell">
        {row.group_name ? (
          <span className="group-chip" style={{ ['--group-color' as string]: row.group_color ?? undefined }}>
            {row.group_name}
          </span>
        ) : (
          <span className="muted">{t('tags.ungrouped')}</span>
        )}
      </td>
      <td data-label={t('tags.col.articles')} className="num" data-count={row.article_count}>
        {t('tags.articles', { count: row.article_count })}
      </td>
      <td data-label={t('tags.col.created')} className="created-cell">
        <time dateTime={row.created_at}>{formatDate(row.created_at, locale)}</time>
      </td>
      <td data-label={t('tags.col.actions')} className="row-actions">
        <span className="actions">
          <button
            type="button"
            className="icon-button"
            tabIndex={tab}
            aria-label={t('tags.edit', { name: row.name })}
            title={t('tags.edit', { name: row.name })}
            onClick={onEdit}
          >
            <Pencil size={16} aria-hidden="true" />
          </button>
          <button
            type="button"
            className="icon-button danger"
            tabIndex={tab}
            aria-label={t('tags.delete', { name: row.name })}
            title={t('tags.delete', { name: row.name })}
            onClick={onDelete}
          >
            <Trash2 size={16} aria-hidden="true" />
          </button>
        </span>
      </td>
    </tr>
  );
}
