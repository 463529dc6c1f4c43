import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useI18n, useT } from '../../../lib/i18n';
import { topicsQuery, useTopics, type Topic } from '../../../lib/topics';
import { errorMessage } from '../../../lib/ui';
import type { SourceRow } from '../api/sources';
import { sourceMessages } from '../source-messages';
import { FetchOutcome } from './source-parts';

const POLL_MS = 1000;
/** the form stops waiting after this; the table shows the fetch whenever it comes */
const WAIT_MS = 3 * 60_000;

/**
 * What became of a new source's first fetch, under the add form: "Fetching…" until the source has a
 * fetch result (the run the form started, or the one that follows the run under way), then the
 * result as the table shows it (items new and duplicate, or the problem).
 */
export function FirstFetchResult({ source, queued }: { source: SourceRow; queued: boolean }) {
  const text = useT(sourceMessages);
  const [since] = useState(() => Date.now());
  const row = useQuery({
    queryKey: ['admin', 'sources'],
    queryFn: () => api<SourceRow[]>('/admin/sources'),
    select: (rows) => rows.find((r) => r.id === source.id),
    refetchInterval: (q) => {
      const found = q.state.data?.find((r) => r.id === source.id);
      return found?.last_fetch || Date.now() - since > WAIT_MS ? false : POLL_MS;
    },
  });
  const fetched = row.data?.last_fetch;
  return (
    <p className="first-fetch" role="status" data-testid="first-fetch">
      <strong>{text.t('firstFetchOf', { name: source.name })}</strong>{' '}
      {fetched ? (
        <FetchOutcome f={fetched} />
      ) : (
        <span className="muted">{queued ? text.t('firstFetchQueued') : text.t('fetching')}</span>
      )}
    </p>
  );
}

/**
 * No topic yet: a source needs one, so the add form offers to create it here instead of a select
 * with nothing to select (which the browser refuses with its own "Please select an item").
 */
export function NewTopicField({ onCreated }: { onCreated: (t: Topic) => void }) {
  const { t } = useI18n();
  const text = useT(sourceMessages);
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: (n: string) => api<Topic>('/admin/topics', { method: 'POST', body: { name: n } }),
    onSuccess: async (topic) => {
      setName('');
      // the topics every page shares and the catalog's own table of topics
      await Promise.all([
        qc.invalidateQueries({ queryKey: topicsQuery.queryKey }),
        qc.invalidateQueries({ queryKey: ['admin', 'topics'] }),
      ]);
      onCreated(topic);
    },
  });
  return (
    <div className="new-topic" role="group" aria-labelledby="new-topic-hint">
      <p id="new-topic-hint" className="muted">
        {text.t('noTopicYet')}
      </p>
      <label>
        {text.t('newTopicName')}
        <input value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
      </label>
      <button
        type="button"
        disabled={!name.trim() || create.isPending}
        onClick={() => create.mutate(name.trim())}
      >
        {text.t('createTopic')}
      </button>
      {create.isError && (
        <span className="form-error" role="alert">
          {errorMessage(create.error, t('common.error'))}
        </span>
      )}
    </div>
  );
}

/** true once the topics are loaded and there is none */
export function useNoTopic(): boolean {
  const topics = useTopics();
  return topics.isSuccess && topics.data.length === 0;
}
