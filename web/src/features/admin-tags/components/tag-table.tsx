import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { ConfirmDialog } from '../../../lib/dialog';
import { useI18n, useT } from '../../../lib/i18n';
import { Empty, ErrorState, Loading, errorMessage } from '../../../lib/ui';
import { useGroupList, useTagTable, type TagRow, type TagSort, type TagWrites } from '../api/tags';
import type { TagsKey } from '../messages';
import { tagsMessages } from '../messages';
import { BulkBar } from './bulk-bar';
import { BulkPreviewDialog, type BulkAction } from './bulk-preview-dialog';
import { TagEditDialog } from './tag-edit-dialog';
import { TagTableRow } from './tag-table-row';
import { useSelection } from './use-selection';

export const PAGE_SIZE = 50;
const SORTS: TagSort[] = ['name', 'group', 'article_count', 'created_at'];
/** counts and dates read best largest / newest first */
const defaultOrder = (s: TagSort) => (s === 'article_count' || s === 'created_at' ? 'desc' : 'asc');

interface Props {
  topicId: string;
  params: URLSearchParams;
  update(changes: Record<string, string | null>): void;
  writes: TagWrites;
  onNotice(text: string): void;
}

/**
 * The tags of a topic, a server page at a time: search, group filter, sortable columns, selection
 * (checkboxes, the page at once, Shift for a range) and the bulk move and merge with a preview.
 * Rows are one tab stop: arrows move between them, Space selects, Enter edits.
 */
export function TagTable({ topicId, params, update, writes, onNotice }: Props) {
  const { t, locale } = useT(tagsMessages);
  const num = (v: number) => new Intl.NumberFormat(locale).format(v);
  const q = params.get('q') ?? '';
  const group = params.get('group') ?? '';
  const sortParam = params.get('sort') as TagSort | null;
  const sort: TagSort = sortParam && SORTS.includes(sortParam) ? sortParam : 'name';
  const order =
    params.get('order') === 'asc' || params.get('order') === 'desc'
      ? params.get('order')!
      : defaultOrder(sort);
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '1', 10) - 1 || 0);

  const table = useTagTable({
    topic_id: topicId,
    q: q || undefined,
    group_id: group || undefined,
    sort,
    order: order as 'asc' | 'desc',
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
  });
  const groups = useGroupList(topicId);
  const realGroups = (groups.data ?? []).filter((g) => g.id !== null);
  const rows = table.data?.items ?? [];
  const total = table.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  const sel = useSelection();
  const [active, setActive] = useState(0);
  const rowRefs = useRef<(HTMLTableRowElement | null)[]>([]);
  const selectPage = useRef<HTMLInputElement>(null);
  const [editing, setEditing] = useState<TagRow | null>(null);
  const [action, setAction] = useState<BulkAction | null>(null);
  const [qInput, setQInput] = useState(q);

  // another topic: nothing of the old one stays selected
  const { clear } = sel;
  useEffect(() => clear(), [topicId, clear]);
  useEffect(() => setQInput(q), [q]);
  // the search follows the typing, a moment after it stops
  useEffect(() => {
    if (qInput === q) return;
    const timer = setTimeout(() => update({ q: qInput, page: null }), 250);
    return () => clearTimeout(timer);
  }, [qInput, q, update]);
  // after a merge or delete the last page may be gone
  useEffect(() => {
    if (table.data && total > 0 && page >= pages) update({ page: String(pages) });
  }, [table.data, total, page, pages, update]);
  useEffect(() => setActive((a) => Math.min(a, Math.max(0, rows.length - 1))), [rows.length]);

  const onPage = rows.filter((r) => sel.selected.has(r.id)).length;
  useEffect(() => {
    if (selectPage.current) selectPage.current.indeterminate = onPage > 0 && onPage < rows.length;
  }, [onPage, rows.length]);

  const focusRow = (i: number) => {
    const k = Math.max(0, Math.min(rows.length - 1, i));
    setActive(k);
    rowRefs.current[k]?.focus();
  };
  const sortBy = (s: TagSort) =>
    update({ sort: s, order: s === sort ? (order === 'asc' ? 'desc' : 'asc') : defaultOrder(s), page: null });
  const [deleting, setDeleting] = useState<TagRow | null>(null);
  const common = useI18n().t;
  const remove = (row: TagRow) => {
    writes.deleteTag.reset();
    setDeleting(row);
  };
  const confirmRemove = (row: TagRow) =>
    writes.deleteTag.mutate(row.id, {
      onSuccess: () => {
        sel.remove([row.id]);
        setDeleting(null);
      },
    });
  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    update({ q: qInput, page: null });
  };

  const header = (s: TagSort, label: string) => {
    const on = s === sort;
    return (
      <th scope="col" aria-sort={on ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <button
          type="button"
          className="sort-button"
          onClick={() => sortBy(s)}
          title={t('tags.sortBy', { column: label })}
          data-sort={s}
        >
          {label}
          {!on ? (
            <ArrowUpDown size={14} aria-hidden="true" />
          ) : order === 'asc' ? (
            <ArrowUp size={14} aria-hidden="true" />
          ) : (
            <ArrowDown size={14} aria-hidden="true" />
          )}
        </button>
      </th>
    );
  };

  return (
    <div className="tag-table-view">
      <div className="toolbar tag-filters">
        <form role="search" onSubmit={submitSearch}>
          <label>
            <span className="field-label">{t('tags.search')}</span>
            <input
              type="search"
              value={qInput}
              maxLength={200}
              placeholder={t('tags.searchPlaceholder')}
              onChange={(e) => setQInput(e.target.value)}
              data-testid="tag-search"
            />
          </label>
        </form>
        <label>
          <span className="field-label">{t('tags.groupFilter')}</span>
          <select
            value={group}
            onChange={(e) => update({ group: e.target.value, page: null })}
            data-testid="tag-group-filter"
          >
            <option value="">{t('tags.allGroups')}</option>
            {realGroups.map((g) => (
              <option key={g.id} value={g.id!}>
                {g.display_name}
              </option>
            ))}
            <option value="ungrouped">{t('tags.ungrouped')}</option>
          </select>
        </label>
        <label className="phone-only">
          <span className="field-label">{t('tags.sort')}</span>
          <select
            value={`${sort}:${order}`}
            onChange={(e) => {
              const [s, o] = e.target.value.split(':');
              update({ sort: s!, order: o!, page: null });
            }}
            data-testid="tag-sort"
          >
            {SORTS.flatMap((s) =>
              (defaultOrder(s) === 'asc' ? ['asc', 'desc'] : ['desc', 'asc']).map((o) => (
                <option key={`${s}:${o}`} value={`${s}:${o}`}>
                  {t(`tags.sort.${s}_${o}` as TagsKey)}
                </option>
              )),
            )}
          </select>
        </label>
        {rows.length > 0 && (
          <label className="phone-only checkbox">
            <input
              type="checkbox"
              checked={onPage === rows.length}
              onChange={() => sel.togglePage(rows)}
              data-testid="select-page-phone"
            />
            {t('tags.selectPage')}
          </label>
        )}
      </div>
      {sel.selected.size > 0 && (
        <BulkBar selected={sel.selected} groups={realGroups} onClear={sel.clear} onAction={setAction} />
      )}
      <p className="muted tag-keys-hint">{t('tags.keysHint')}</p>
      {table.isLoading ? (
        <Loading />
      ) : table.isError ? (
        <ErrorState error={table.error} onRetry={() => void table.refetch()} />
      ) : rows.length === 0 ? (
        <Empty>{q ? t('tags.emptySearch', { q }) : t('tags.empty')}</Empty>
      ) : (
        <div className="table-wrap">
          <table className="tag-table" data-testid="tag-table" aria-busy={table.isFetching}>
            <thead>
              <tr>
                <th scope="col" className="select-cell">
                  <input
                    ref={selectPage}
                    type="checkbox"
                    aria-label={t('tags.selectPage')}
                    checked={rows.length > 0 && onPage === rows.length}
                    onChange={() => sel.togglePage(rows)}
                    data-testid="select-page"
                  />
                </th>
                {header('name', t('tags.col.name'))}
                {header('group', t('tags.col.group'))}
                {header('article_count', t('tags.col.articles'))}
                {header('created_at', t('tags.col.created'))}
                <th scope="col">{t('tags.col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <TagTableRow
                  key={row.id}
                  row={row}
                  ref={(el) => {
                    rowRefs.current[i] = el;
                  }}
                  active={i === active}
                  selected={sel.selected.has(row.id)}
                  onFocus={() => setActive(i)}
                  onToggle={(range) => sel.toggle(rows, i, range)}
                  onMove={(to) => focusRow(to === 'first' ? 0 : to === 'last' ? rows.length - 1 : i + to)}
                  onEdit={() => setEditing(row)}
                  onDelete={() => remove(row)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {total > 0 && (
        <nav className="pager" aria-label={t('tags.page', { page: page + 1, pages })}>
          <button type="button" disabled={page === 0} onClick={() => update({ page: String(page) })}>
            {t('tags.previous')}
          </button>
          <span>{t('tags.page', { page: num(page + 1), pages: num(pages) })}</span>
          <button
            type="button"
            disabled={page + 1 >= pages}
            onClick={() => update({ page: String(page + 2) })}
          >
            {t('tags.next')}
          </button>
          <span className="muted" data-testid="tag-range">
            {t('tags.range', {
              from: num(page * PAGE_SIZE + 1),
              to: num(Math.min(total, page * PAGE_SIZE + rows.length)),
              total: num(total),
            })}
          </span>
        </nav>
      )}
      {editing && (
        <TagEditDialog tag={editing} groups={realGroups} writes={writes} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('tags.delete', { name: deleting.name })}
          confirmLabel={common('common.delete')}
          danger
          pending={writes.deleteTag.isPending}
          error={writes.deleteTag.error ? errorMessage(writes.deleteTag.error, common('common.error')) : null}
          onConfirm={() => confirmRemove(deleting)}
          onClose={() => setDeleting(null)}
          testId="tag-delete-confirm"
        >
          <p>{t('tags.confirmDelete', { name: deleting.name, count: deleting.article_count })}</p>
        </ConfirmDialog>
      )}
      {action && (
        <BulkPreviewDialog
          action={action}
          writes={writes}
          onClose={() => setAction(null)}
          onDone={(text) => {
            sel.clear();
            setAction(null);
            onNotice(text);
          }}
        />
      )}
    </div>
  );
}
