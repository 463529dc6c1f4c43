import { useState } from 'react';
import { SlidersHorizontal } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import type { MetricDefinition } from '../api/metric-definitions';
import type { ListState } from '../model/list-state';
import { SortMenu } from './sort-menu';

interface Props {
  state: ListState;
  signedIn: boolean;
  metrics: MetricDefinition[];
  update(changes: Record<string, string | null>): void;
}

/** Topic, sort, order and the reader's filters; on a phone they fold behind one "Filters" button. */
export function ListFilters({ state, signedIn, metrics, update }: Props) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const active = [state.topicId, state.tag, state.favoritesOnly, state.unreadOnly].filter(Boolean).length;
  return (
    <div className="filters">
      <button
        type="button"
        className="filters-toggle"
        aria-expanded={open}
        aria-controls="list-filters"
        onClick={() => setOpen((o) => !o)}
        data-testid="filters-toggle"
      >
        <SlidersHorizontal size={16} aria-hidden="true" /> {t('articles.filters')}
        {active > 0 && <span className="badge">{active}</span>}
      </button>
      <div
        id="list-filters"
        className={open ? 'toolbar open' : 'toolbar'}
        role="group"
        aria-label={t('articles.filters')}
        data-testid="list-filters"
      >
        <TopicSelect
          label={t('articles.topic')}
          allLabel={t('articles.allTopics')}
          value={state.topicId ?? ''}
          onChange={(e) => update({ topic: e.target.value || null })}
          testId="topic-select"
        />
        <SortMenu
          value={state.sort}
          order={state.order}
          metrics={metrics}
          relevance={!!state.q}
          onChange={(s) => update({ sort: s === (state.q ? 'relevance' : 'scraped_at') ? null : s })}
          onToggleOrder={() => update({ order: state.order === 'asc' ? null : 'asc' })}
        />
        {state.tag && (
          <button
            type="button"
            onClick={() => update({ tag: null })}
            aria-label={`${t('articles.tags')}: ${state.tag} ×`}
          >
            #{state.tag} ×
          </button>
        )}
        {signedIn && (
          <>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={state.unreadOnly}
                onChange={(e) => update({ unread: e.target.checked ? '1' : null })}
                data-testid="unread-only"
              />
              {t('articles.unreadOnly')}
            </label>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={state.favoritesOnly}
                onChange={(e) => update({ favorites: e.target.checked ? '1' : null })}
                data-testid="favorites-only"
              />
              {t('articles.favoritesOnly')}
            </label>
          </>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={state.allVersions}
            onChange={(e) => update({ versions: e.target.checked ? 'all' : null })}
            data-testid="all-versions"
          />
          {t('articles.allVersions')}
        </label>
      </div>
    </div>
  );
}
