import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useI18n, useT } from '../../../lib/i18n';
import { TopicSelect } from '../../../lib/topic-select';
import { errorMessage } from '../../../lib/ui';
import { usePreview, type SourcePreview, type useSourceWrites } from '../api/sources';
import { sourceMessages } from '../source-messages';
import { PreviewPanel } from './source-preview';
import { FirstFetchResult, NewTopicField, useNoTopic } from './source-first-fetch';
import type { SourceRow } from '../api/sources';

type Create = ReturnType<typeof useSourceWrites>['create'];

/** "every" choices of the interval field (any whole number from 5 to 10080 is accepted) */
export const INTERVAL_LIST = 'source-intervals';
export function IntervalOptions() {
  return (
    <datalist id={INTERVAL_LIST}>
      {[15, 30, 60, 180, 360, 720, 1440, 10_080].map((m) => (
        <option key={m} value={m} />
      ))}
    </datalist>
  );
}

/** The kind and fetch-interval fields of the add and edit forms. */
export function KindAndIntervalFields({ kind, interval }: { kind: string; interval: number }) {
  const { t } = useI18n();
  const text = useT(sourceMessages);
  return (
    <>
      <label>
        {t('admin.catalog.kind')}
        <select name="kind" defaultValue={kind}>
          <option value="rss">RSS / Atom / JSON Feed</option>
          <option value="arxiv">arXiv</option>
        </select>
      </label>
      <label>
        {text.t('interval')}
        <input
          name="fetch_interval_minutes"
          type="number"
          min={5}
          max={10_080}
          step={1}
          defaultValue={interval}
          required
          list={INTERVAL_LIST}
        />
      </label>
    </>
  );
}

/**
 * Adding a source: the address is checked first (Check) and what it is shows below it: a feed with
 * its title, item count and newest item; the feeds a site's page links to (pick one); or why it is
 * not a feed, with "Save anyway" for an intranet feed that is down for now. The server checks again
 * on save.
 */
export function SourceCreateForm({ create }: { create: Create }) {
  const { t } = useI18n();
  const text = useT(sourceMessages);
  const preview = usePreview();
  const [url, setUrl] = useState('');
  const [checked, setChecked] = useState<SourcePreview | null>(null);
  const [force, setForce] = useState(false);
  const [added, setAdded] = useState<{ source: SourceRow; queued: boolean } | null>(null);
  const noTopic = useNoTopic();

  const check = (address: string) => {
    setForce(false);
    preview.mutate(address, {
      onSuccess: (p) => {
        setChecked(p);
        // the site's one feed (or the one picked) is what gets saved
        if (p.status === 'feed') setUrl(p.url);
      },
      onError: () => setChecked(null),
    });
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const name = String(f.get('name') ?? '').trim();
    create.mutate(
      {
        topic_id: String(f.get('topic_id')),
        kind: String(f.get('kind')),
        url,
        fetch_interval_minutes: Number(f.get('fetch_interval_minutes')),
        ...(name ? { name } : {}),
        ...(force ? { force: true } : {}),
        // read at once: the form shows the first fetch's result below
        fetch_now: true,
      },
      {
        onSuccess: (created) => {
          const { first_fetch_run_id: runId } = created as SourceRow & { first_fetch_run_id?: string | null };
          setAdded(created.enabled ? { source: created, queued: !runId } : null);
          form.reset();
          setUrl('');
          setChecked(null);
          setForce(false);
          preview.reset();
        },
      },
    );
  };
  const current = checked && (checked.url === url || checked.requested_url === url) ? checked : null;
  // the check said this address is no feed, or (unchecked) the server refused to save it for that
  const refusedHere =
    create.error instanceof ApiError &&
    create.error.code === 'source_not_a_feed' &&
    create.variables?.url === url;
  const notFeed = current ? current.status === 'problem' : refusedHere;
  // a page with several feeds: one is picked, the page itself is never saved
  const mustPick = current?.status === 'page';
  return (
    <form className="source-create" onSubmit={submit} aria-label={text.t('addTitle')}>
      <h3>{text.t('addTitle')}</h3>
      <div className="row source-url-row">
        <label className="grow">
          {text.t('url')}
          <input
            name="url"
            type="url"
            required
            pattern="https?://.+"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://"
          />
        </label>
        <button
          type="button"
          disabled={!/^https?:\/\/.+/.test(url) || preview.isPending}
          onClick={() => check(url)}
        >
          {preview.isPending ? text.t('checking') : text.t('check')}
        </button>
      </div>
      {preview.isError && (
        <p className="form-error" role="alert">
          {errorMessage(preview.error, t('common.error'))}
        </p>
      )}
      {current && (
        <PreviewPanel
          p={current}
          onPick={(picked) => {
            setUrl(picked);
            check(picked);
          }}
        />
      )}
      <div className="row">
        {noTopic ? (
          <NewTopicField onCreated={() => undefined} />
        ) : (
          <TopicSelect label={t('articles.topic')} plainLabel name="topic_id" required />
        )}
        <label>
          {text.t('name')}
          <input
            name="name"
            maxLength={120}
            placeholder={current?.feed?.title ?? text.t('namePlaceholder')}
          />
        </label>
        <KindAndIntervalFields kind="rss" interval={60} />
      </div>
      {notFeed && (
        <label className="checkbox">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} />
          {text.t('saveAnyway')}
        </label>
      )}
      <button type="submit" disabled={noTopic || create.isPending || mustPick || (notFeed && !force)}>
        {text.t('add')}
      </button>
      {added && <FirstFetchResult key={added.source.id} source={added.source} queued={added.queued} />}
    </form>
  );
}
