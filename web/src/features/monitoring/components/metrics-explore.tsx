import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Play } from 'lucide-react';
import { ApiError } from '../../../lib/api-client';
import { postBatch } from '../api/monitor';
import { queryWindow } from '../model/panel-data';
import { errorOf, failed, settle } from '../model/use-dashboard';
import type { PanelDef, PanelState, TimeRange } from '../model/types';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';
import { PanelCard } from './panel-card';

const RANGE_SECONDS: Record<TimeRange, number> = {
  '6h': 6 * 3600,
  '24h': 24 * 3600,
  '3d': 3 * 86400,
  '7d': 7 * 86400,
};

/**
 * A query box for the metrics store (Grafana's Explore in small): the admin's PromQL over the chosen
 * range, kept in `?q=`, drawn as one more panel. No step is sent: the proxy picks one for about 250
 * points. A query the store refuses shows the store's own reason on the panel; an outage keeps the
 * last result, marked stale with its age; the page's refresh interval re-runs it.
 */
export function MetricsExplore({ range, intervalSeconds }: { range: TimeRange; intervalSeconds: number }) {
  const { t } = useT(monMessages);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  const [state, setState] = useState<PanelState | null>(null);
  const [running, setRunning] = useState(false);
  const generation = useRef(0);
  useEffect(() => setDraft(q), [q]);

  const panelOf = useCallback(
    (query: string): PanelDef => {
      const end = Math.floor(Date.now() / 1000);
      return {
        id: 'met-explore',
        tab: 'metrics',
        title: 'Query result',
        kind: 'timeseries',
        datasource: 'metrics',
        query: { id: 'met-explore', query, start: String(end - RANGE_SECONDS[range]), end: String(end) },
      };
    },
    [range],
  );

  const run = useCallback(
    async (query: string) => {
      if (!query.trim()) return;
      const gen = ++generation.current;
      const panel = panelOf(query);
      setRunning(true);
      let next: (had: PanelState | null) => PanelState;
      try {
        const { results } = await postBatch('metrics', [panel.query]);
        const r = results[0];
        if (!r) next = (had) => failed(had ?? undefined, { code: 'no_result' });
        else if (r.status === 'error') {
          const last = r.last_fetched_at ? Date.parse(r.last_fetched_at) : NaN;
          next = (had) =>
            failed(had ?? undefined, {
              code: r.error.code,
              message: r.error.message,
              lastFetchedAt: Number.isFinite(last) ? last : undefined,
            });
        } else {
          const at = Date.parse(r.fetched_at) || Date.now();
          next = () => settle(panel, r.data, at, r.stale, queryWindow(panel.query));
        }
      } catch (e) {
        next =
          e instanceof ApiError && e.status === 503
            ? () => ({ status: 'not-configured', store: 'metrics' })
            : (had) => failed(had ?? undefined, errorOf(e));
      }
      if (gen !== generation.current) return;
      setState((had) => next(had));
      setRunning(false);
    },
    [panelOf],
  );

  // a new query or range runs at once (a changed query drops the old result); the interval re-runs it
  useEffect(() => {
    setState(null);
    void run(q);
  }, [q, run]);
  useEffect(() => {
    if (!q.trim() || intervalSeconds <= 0 || state?.status === 'not-configured') return;
    const timer = setInterval(() => void run(q), intervalSeconds * 1000);
    return () => clearInterval(timer);
  }, [q, intervalSeconds, run, state?.status]);

  return (
    <>
      <form
        className="mon-explore"
        aria-label={t('mon.explore.title')}
        onSubmit={(e) => {
          e.preventDefault();
          const next = new URLSearchParams(params);
          if (draft.trim()) next.set('q', draft.trim());
          else next.delete('q');
          if (draft.trim() === q) void run(q);
          else setParams(next, { replace: true });
        }}
      >
        <label htmlFor="mon-explore-q">{t('mon.explore.title')}</label>
        <div className="mon-explore-row">
          <input
            id="mon-explore-q"
            name="q"
            type="text"
            spellCheck={false}
            autoComplete="off"
            maxLength={4000}
            value={draft}
            placeholder="sum by (stage) (increase(pipeline_articles_total[1h]))"
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" disabled={!draft.trim() || running}>
            <Play size={14} aria-hidden /> {t('mon.explore.run')}
          </button>
        </div>
        <p className="mon-muted">{t('mon.explore.hint')}</p>
      </form>
      {q.trim() && (
        <PanelCard
          panel={panelOf(q)}
          state={state ?? { status: 'loading' }}
          refreshing={running && state !== null}
          onRefresh={() => void run(q)}
        />
      )}
    </>
  );
}
