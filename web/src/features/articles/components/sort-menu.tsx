import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  ArrowDownWideNarrow,
  ArrowUpNarrowWide,
  CalendarDays,
  Clock,
  Eye,
  Globe,
  Search,
  Type,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { MetricIcon } from '../../../lib/metric-icon';
import type { MessageName } from '../../../lib/messages';
import type { MetricDefinition } from '../api/metric-definitions';

export const BUILTIN_SORTS: { key: string; label: MessageName; icon: LucideIcon }[] = [
  { key: 'scraped_at', label: 'sort.scraped_at', icon: Clock },
  { key: 'published_at', label: 'sort.published_at', icon: CalendarDays },
  { key: 'source', label: 'sort.source', icon: Globe },
  { key: 'title', label: 'sort.title', icon: Type },
  { key: 'view_count', label: 'sort.view_count', icon: Eye },
];

interface Props {
  value: string;
  order: 'asc' | 'desc';
  metrics: MetricDefinition[];
  /** offer "Relevance" (only while searching) */
  relevance?: boolean;
  onChange(sort: string): void;
  onToggleOrder(): void;
}

/** A menu of sort keys with icons (a native select cannot show them), fully keyboard driven. */
export function SortMenu({ value, order, metrics, relevance, onChange, onToggleOrder }: Props) {
  const { t, tx } = useI18n();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const options = [
    ...(relevance
      ? [
          {
            key: 'relevance',
            label: t('articles.sortRelevance'),
            icon: <Search size={16} aria-hidden="true" />,
          },
        ]
      : []),
    ...BUILTIN_SORTS.map((s) => ({
      key: s.key,
      label: t(s.label),
      icon: <s.icon size={16} aria-hidden="true" />,
    })),
    ...metrics.map((m) => ({
      key: m.metric_key,
      label: tx(m.label_i18n_key, m.metric_key.replace(/_/g, ' ')),
      icon: <MetricIcon name={m.icon_name} />,
    })),
  ];
  const current = options.find((o) => o.key === value) ?? options[0]!;

  useEffect(() => {
    if (open) listRef.current?.querySelector<HTMLButtonElement>('[aria-checked="true"]')?.focus();
  }, [open]);

  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const items = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      setOpen(false);
      buttonRef.current?.focus();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      items[(i + 1) % items.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    }
  };

  return (
    <div className="sort-menu">
      <span className="field-label" id={`${menuId}-label`}>
        {t('articles.sort')}
      </span>
      <button
        ref={buttonRef}
        type="button"
        className="sort-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-labelledby={`${menuId}-label ${menuId}-current`}
        onClick={() => setOpen((o) => !o)}
        data-testid="sort-menu"
      >
        {current.icon} <span id={`${menuId}-current`}>{current.label}</span>
      </button>
      {open && (
        <ul ref={listRef} id={menuId} role="menu" className="menu" onKeyDown={onKey}>
          {options.map((o) => (
            <li key={o.key} role="none">
              <button
                type="button"
                role="menuitemradio"
                aria-checked={o.key === value}
                data-sort-key={o.key}
                onClick={() => {
                  onChange(o.key);
                  setOpen(false);
                  buttonRef.current?.focus();
                }}
              >
                {o.icon} {o.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="icon-button"
        onClick={onToggleOrder}
        aria-label={`${t('articles.order.toggle')}: ${t(order === 'asc' ? 'articles.order.asc' : 'articles.order.desc')}`}
        data-testid="order-toggle"
        data-order={order}
      >
        {order === 'asc' ? (
          <ArrowUpNarrowWide size={18} aria-hidden="true" />
        ) : (
          <ArrowDownWideNarrow size={18} aria-hidden="true" />
        )}
      </button>
    </div>
  );
}
