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
              <UrlCheckbox
                checked={state.unreadOnly}
                onChange={(on) => update({ unread: on ? '1' : null })}
                testId="unread-only"
              />
              {t('articles.unreadOnly')}
            </label>
            <label className="checkbox">
              <UrlCheckbox
                checked={state.favoritesOnly}
                onChange={(on) => update({ favorites: on ? '1' : null })}
                testId="favorites-only"
              />
              {t('articles.favoritesOnly')}
            </label>
          </>
        )}
        <label className="checkbox">
          <UrlCheckbox
            checked={state.allVersions}
            onChange={(on) => update({ versions: on ? 'all' : null })}
            testId="all-versions"
          />
          {t('articles.allVersions')}
        </label>
      </div>
    </div>
  );
}

/**
 * A checkbox whose state lives in the URL. The router applies a URL change as a transition, so a
 * box controlled by the URL alone showed its old state until the list had re-rendered (a click
 * seemed not to take on a busy machine). It shows the click at once and follows the URL when that
 * changes otherwise (back, a link); it is never remounted, so the focus stays on it.
 */
function UrlCheckbox(props: { checked: boolean; onChange(on: boolean): void; testId: string }) {
  const [shown, setShown] = useState(props.checked);
  const [fromUrl, setFromUrl] = useState(props.checked);
  if (props.checked !== fromUrl) {
    setFromUrl(props.checked);
    setShown(props.checked);
  }
  return (
    <input
      type="checkbox"
      checked={shown}
      onChange={(e) => {
        setShown(e.target.checked);
        props.onChange(e.target.checked);
      }}
      data-testid={props.testId}
    />
  );
}
