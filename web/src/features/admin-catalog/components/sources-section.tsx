import { useState } from 'react';
import { useI18n, useT } from '../../../lib/i18n';
import { ErrorState, Loading, errorMessage } from '../../../lib/ui';
import { useTopics } from '../../../lib/topics';
import { useAdminList } from '../api/catalog';
import { useFetchNow, useSourceWrites, useSources, type SourceRow } from '../api/sources';
import { catalogMessages } from '../messages';
import { intervalText, sourceMessages } from '../source-messages';
import { IntervalOptions, SourceCreateForm } from './source-create-form';
import { SourceEditForm } from './source-edit-form';
import { SourceHistory } from './source-history';
import { LastFetchCell, NextFetchCell, SourceWriteError } from './source-parts';
import './catalog-tables.css';
import './sources.css';

type Writes = ReturnType<typeof useSourceWrites>;
type Show = 'all' | 'failing' | 'disabled';

/** a source whose latest fetch failed (an HTTP error, a network problem, a feed that did not parse) */
const failing = (s: SourceRow) => Boolean(s.last_fetch?.error_code ?? s.last_error);

/**
 * The sources by topic (in the topics' order, a source of an unknown topic under its id), those
 * matching the search (name or address) and the filter; empty groups are left out.
 */
function groupByTopic(
  sources: SourceRow[],
  topics: { id: string; name: string }[],
  query: string,
  show: Show,
) {
  const q = query.trim().toLowerCase();
  const keep = sources.filter(
    (s) =>
      (!q || s.name.toLowerCase().includes(q) || s.url.toLowerCase().includes(q)) &&
      (show === 'all' || (show === 'failing' ? failing(s) : !s.enabled)),
  );
  const order = new Map(topics.map((t, i) => [t.id, i]));
  const groups = new Map<string, { topicId: string; name: string; sources: SourceRow[] }>();
  for (const s of keep) {
    const g = groups.get(s.topic_id) ?? {
      topicId: s.topic_id,
      name: topics.find((t) => t.id === s.topic_id)?.name ?? s.topic_id,
      sources: [],
    };
    g.sources.push(s);
    groups.set(s.topic_id, g);
  }
  return [...groups.values()].sort(
    (a, b) => (order.get(a.topicId) ?? 1e9) - (order.get(b.topicId) ?? 1e9) || a.name.localeCompare(b.name),
  );
}

/** "Fetch now" and what became of the run it started. */
function FetchNowButton({ source }: { source: SourceRow }) {
  const text = useT(sourceMessages);
  const { t } = useI18n();
  const { start, run, running } = useFetchNow(source.id);
  const failed = run && (run.status === 'failed' || run.status === 'interrupted');
  return (
    <>
      <button
        type="button"
        disabled={running}
        onClick={() => start.mutate()}
        aria-label={`${text.t('fetchNow')}: ${source.name}`}
      >
        {running ? text.t('fetching') : text.t('fetchNow')}
      </button>
      {(start.isError || (run && !running)) && (
        <span
          className={`fetch-result ${start.isError || failed ? 'form-error' : 'saved'}`}
          role="status"
          data-testid="fetch-now-result"
        >
          {start.isError
            ? errorMessage(start.error, t('common.error'))
            : failed
              ? text.t('fetchFailed', { error: run.error ?? run.status })
              : text.t('fetchDone')}
        </span>
      )}
    </>
  );
}

function SourceRows({ source, writes, columns }: { source: SourceRow; writes: Writes; columns: string[] }) {
  const { t } = useI18n();
  const catalog = useT(catalogMessages);
  const text = useT(sourceMessages);
  const topics = useTopics();
  const [open, setOpen] = useState<'edit' | 'history' | null>(null);
  const toggle = (what: 'edit' | 'history') => setOpen(open === what ? null : what);
  const topicName = topics.data?.find((x) => x.id === source.topic_id)?.name ?? source.topic_id;
  const cells = [
    <span key="name" className="source-name">
      <strong>{source.name}</strong>
      <small className="url-cell">{source.url}</small>
    </span>,
    topicName,
    text.t('every', { n: intervalText(text, source.fetch_interval_minutes) }),
    <LastFetchCell key="last" s={source} />,
    <NextFetchCell key="next" s={source} />,
  ];
  return (
    <>
      <tr data-testid="sources-row">
        {cells.map((cell, i) => (
          <td key={columns[i]} data-label={columns[i]}>
            <span className="cell">{cell}</span>
          </td>
        ))}
        <td data-label={t('admin.catalog.enabled')}>
          <input
            type="checkbox"
            aria-label={`${t('admin.catalog.enabled')}: ${source.name}`}
            checked={source.enabled}
            onChange={(e) => writes.update.mutate({ id: source.id, enabled: e.target.checked })}
          />
        </td>
        <td className="row-actions" data-label={catalog.t('actions')}>
          <div className="actions">
            <button
              type="button"
              aria-expanded={open === 'edit'}
              aria-label={catalog.t('editing', { name: source.name })}
              onClick={() => toggle('edit')}
            >
              {catalog.t('edit')}
            </button>
            <button
              type="button"
              aria-expanded={open === 'history'}
              aria-label={`${text.t('history')}: ${source.name}`}
              onClick={() => toggle('history')}
            >
              {open === 'history' ? text.t('hideHistory') : text.t('history')}
            </button>
            <FetchNowButton source={source} />
            <button type="button" className="danger" onClick={() => writes.remove.mutate(source.id)}>
              {t('common.delete')}
            </button>
          </div>
        </td>
      </tr>
      {open && (
        <tr className="edit-row">
          <td colSpan={columns.length + 2}>
            {open === 'edit' ? (
              <SourceEditForm source={source} update={writes.update} onDone={() => setOpen(null)} />
            ) : (
              <SourceHistory source={source} />
            )}
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * The sources: a table with each source's interval, last fetch (HTTP status, items new and
 * duplicate, the problem in plain words) and next fetch; Edit, History (the last 20 fetches),
 * Fetch now and Delete per row; and the add form with its check and feed discovery. The section
 * shows the error of its latest write only: a later successful write clears an older failure.
 */
export function SourcesSection() {
  const { t } = useI18n();
  const catalog = useT(catalogMessages);
  const text = useT(sourceMessages);
  const list = useSources();
  const writes = useSourceWrites();
  // the admin's list: inactive topics too
  const topics = useAdminList<{ id: string; name: string }>('topics');
  const [query, setQuery] = useState('');
  const [show, setShow] = useState<Show>('all');
  const groups = groupByTopic(list.data ?? [], topics.data ?? [], query, show);
  const columns = [
    t('admin.catalog.name'),
    t('articles.topic'),
    text.t('intervalCol'),
    text.t('lastFetch'),
    text.t('nextFetch'),
  ];
  return (
    <section className="admin-section card" aria-labelledby="sources-title">
      <h2 id="sources-title">{t('admin.catalog.sources')}</h2>
      <SourceWriteError writes={[writes.create, writes.update, writes.remove]} />
      <div className="row sources-filters">
        <label className="grow">
          {text.t('search')}
          <input
            type="search"
            value={query}
            placeholder={text.t('searchPlaceholder')}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
        <label>
          {text.t('show')}
          <select value={show} onChange={(e) => setShow(e.target.value as Show)}>
            <option value="all">{text.t('showAll')}</option>
            <option value="failing">{text.t('showFailing')}</option>
            <option value="disabled">{text.t('showDisabled')}</option>
          </select>
        </label>
      </div>
      <IntervalOptions />
      {list.isLoading ? (
        <Loading />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className="table-wrap">
          <table className="catalog-table sources-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
                <th>{t('admin.catalog.enabled')}</th>
                <th>{catalog.t('actions')}</th>
              </tr>
            </thead>
            {groups.map((g) => (
              <tbody key={g.topicId} data-testid="sources-group">
                <tr className="group-row">
                  <th colSpan={columns.length + 2} scope="rowgroup">
                    {g.name}{' '}
                    <small className="muted">{text.t('groupCount', { count: g.sources.length })}</small>
                  </th>
                </tr>
                {g.sources.map((s) => (
                  <SourceRows key={s.id} source={s} writes={writes} columns={columns} />
                ))}
              </tbody>
            ))}
          </table>
          {list.data && list.data.length > 0 && groups.length === 0 && (
            <p className="muted">{text.t('noMatch')}</p>
          )}
        </div>
      )}
      <SourceCreateForm create={writes.create} />
    </section>
  );
}
