import { useState } from 'react';
import { useI18n } from '../../../lib/i18n';
import { ErrorState, Loading, errorMessage } from '../../../lib/ui';
import { useTopics } from '../../../lib/topics';
import { useFetchNow, useSourceWrites, useSources, type SourceRow } from '../api/sources';
import { fill, useCatalogText } from '../messages';
import { intervalText, useSourceText } from '../source-messages';
import { IntervalOptions, SourceCreateForm } from './source-create-form';
import { SourceEditForm } from './source-edit-form';
import { SourceHistory } from './source-history';
import { LastFetchCell, NextFetchCell, SourceWriteError } from './source-parts';
import './catalog-tables.css';
import './sources.css';

type Writes = ReturnType<typeof useSourceWrites>;

/** "Fetch now" and what became of the run it started. */
function FetchNowButton({ source }: { source: SourceRow }) {
  const text = useSourceText();
  const { t } = useI18n();
  const { start, run, running } = useFetchNow(source.id);
  const failed = run && (run.status === 'failed' || run.status === 'interrupted');
  return (
    <>
      <button
        type="button"
        disabled={running}
        onClick={() => start.mutate()}
        aria-label={`${text.fetchNow}: ${source.name}`}
      >
        {running ? text.fetching : text.fetchNow}
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
              ? fill(text.fetchFailed, { error: run.error ?? run.status })
              : text.fetchDone}
        </span>
      )}
    </>
  );
}

function SourceRows({ source, writes, columns }: { source: SourceRow; writes: Writes; columns: string[] }) {
  const { t } = useI18n();
  const catalog = useCatalogText();
  const text = useSourceText();
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
    fill(text.every, { n: intervalText(text, source.fetch_interval_minutes) }),
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
        <td className="row-actions" data-label={catalog.actions}>
          <div className="actions">
            <button
              type="button"
              aria-expanded={open === 'edit'}
              aria-label={fill(catalog.editing, { name: source.name })}
              onClick={() => toggle('edit')}
            >
              {catalog.edit}
            </button>
            <button
              type="button"
              aria-expanded={open === 'history'}
              aria-label={`${text.history}: ${source.name}`}
              onClick={() => toggle('history')}
            >
              {open === 'history' ? text.hideHistory : text.history}
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
  const catalog = useCatalogText();
  const text = useSourceText();
  const list = useSources();
  const writes = useSourceWrites();
  const columns = [
    t('admin.catalog.name'),
    t('articles.topic'),
    text.intervalCol,
    text.lastFetch,
    text.nextFetch,
  ];
  return (
    <section className="admin-section card" aria-labelledby="sources-title">
      <h2 id="sources-title">{t('admin.catalog.sources')}</h2>
      <SourceWriteError writes={[writes.create, writes.update, writes.remove]} />
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
                <th>{catalog.actions}</th>
              </tr>
            </thead>
            <tbody>
              {list.data?.map((s) => (
                <SourceRows key={s.id} source={s} writes={writes} columns={columns} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <SourceCreateForm create={writes.create} />
    </section>
  );
}
