import { Fragment, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { ApiError } from '../../../lib/api-client';
import { getTrace } from '../api/monitor';
import { articlePipelines, nsToDate, traceEnvironment, type ArticleStages } from '../model/panel-data';
import type { TraceDetail, TraceSummary } from '../model/types';
import { WaterfallDialog } from './waterfall-dialog';
import { WorkflowDialog } from './workflow-dialog';
import { useT } from '../../../lib/i18n';
import { monMessages } from '../i18n/messages';

type Loaded =
  { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; detail: TraceDetail };

/** Scraper runs; a row expands to the run's per-article pipeline spans. */
export function TracesTable({ traces }: { traces: TraceSummary[] }) {
  const { t } = useT(monMessages);
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const [details, setDetails] = useState<Record<string, Loaded>>({});
  const [waterfall, setWaterfall] = useState<string | null>(null);
  const [workflow, setWorkflow] = useState<ArticleStages | null>(null);

  const load = (id: string) => {
    if (details[id]?.status === 'ok' || details[id]?.status === 'loading') return;
    setDetails((d) => ({ ...d, [id]: { status: 'loading' } }));
    getTrace(id).then(
      (detail) => setDetails((d) => ({ ...d, [id]: { status: 'ok', detail } })),
      (e: unknown) =>
        setDetails((d) => ({
          ...d,
          [id]: {
            status: 'error',
            message: t(
              e instanceof ApiError && e.code === 'trace_not_found'
                ? 'mon.traces.notFound'
                : 'mon.traces.loadFailed',
            ),
          },
        })),
    );
  };

  if (!traces.length) return <p className="state state-empty">{t('mon.traces.empty')}</p>;
  const wfDetail = waterfall ? details[waterfall] : undefined;
  return (
    <>
      <div className="mon-table-wrap">
        <table className="mon-table">
          <thead>
            <tr>
              <th scope="col" aria-label={t('mon.traces.expandCol')} />
              <th scope="col">{t('mon.traces.started')}</th>
              <th scope="col">{t('mon.traces.run')}</th>
              <th scope="col">{t('mon.traces.duration')}</th>
              <th scope="col">{t('mon.traces.environment')}</th>
              <th scope="col">{t('mon.traces.spans')}</th>
            </tr>
          </thead>
          <tbody>
            {traces.map((tr) => {
              const open = expanded[tr.traceID];
              const d = details[tr.traceID];
              return (
                <Fragment key={tr.traceID}>
                  <tr>
                    <td>
                      <button
                        type="button"
                        className="icon-button"
                        aria-expanded={Boolean(open)}
                        aria-label={t(open ? 'mon.traces.collapse' : 'mon.traces.expand', {
                          id: tr.traceID.slice(0, 8),
                        })}
                        onClick={() => {
                          setExpanded((e) => ({ ...e, [tr.traceID]: !open }));
                          if (!open) load(tr.traceID);
                        }}
                      >
                        {open ? (
                          <ChevronDown size={16} aria-hidden />
                        ) : (
                          <ChevronRight size={16} aria-hidden />
                        )}
                      </button>
                    </td>
                    <td>{nsToDate(tr.startTimeUnixNano).toLocaleString()}</td>
                    <td>
                      <code>{tr.rootTraceName ?? 'scraper.run'}</code>{' '}
                      <span className="mon-muted">{tr.traceID.slice(0, 8)}</span>
                    </td>
                    <td>{tr.durationMs !== undefined ? `${tr.durationMs} ms` : '—'}</td>
                    <td>{traceEnvironment(tr) ?? '—'}</td>
                    <td>{tr.spanSet?.matched ?? tr.spanSets?.[0]?.matched ?? '—'}</td>
                  </tr>
                  {open && (
                    <tr className="mon-expanded">
                      <td colSpan={6}>
                        {!d || d.status === 'loading' ? (
                          <p className="state state-loading" role="status">
                            {t('mon.traces.loadingSpans')}
                          </p>
                        ) : d.status === 'error' ? (
                          <p className="state state-error" role="alert">
                            {d.message}
                          </p>
                        ) : (
                          <RunArticles
                            articles={articlePipelines(d.detail)}
                            onWaterfall={() => setWaterfall(tr.traceID)}
                            onWorkflow={setWorkflow}
                          />
                        )}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {waterfall && wfDetail?.status === 'ok' && (
        <WaterfallDialog traceId={waterfall} detail={wfDetail.detail} onClose={() => setWaterfall(null)} />
      )}
      {workflow && <WorkflowDialog article={workflow} onClose={() => setWorkflow(null)} />}
    </>
  );
}

function RunArticles({
  articles,
  onWaterfall,
  onWorkflow,
}: {
  articles: ArticleStages[];
  onWaterfall: () => void;
  onWorkflow: (a: ArticleStages) => void;
}) {
  const { t } = useT(monMessages);
  return (
    <div className="mon-run-articles">
      <button type="button" onClick={onWaterfall}>
        {t('mon.traces.openWaterfall')}
      </button>
      <ul aria-label={t('mon.traces.pipelines')}>
        {articles.map((a) => (
          <li key={a.pipelineSpanId} className={a.error ? 'is-error' : undefined}>
            <span className={`mon-badge ${a.error ? 'mon-badge-error' : 'mon-badge-ok'}`}>
              {t(a.error ? 'mon.traces.error' : 'mon.traces.ok')}
            </span>{' '}
            <span className="mon-ellipsis">{a.url}</span>{' '}
            <span className="mon-muted">{t('mon.traces.stages', { n: a.stages.length })}</span>{' '}
            <button
              type="button"
              onClick={() => onWorkflow(a)}
              aria-label={t('mon.traces.workflowOf', { url: a.url })}
            >
              {t('mon.traces.workflow')}
            </button>
          </li>
        ))}
        {!articles.length && <li className="mon-muted">{t('mon.traces.noArticles')}</li>}
      </ul>
    </div>
  );
}
