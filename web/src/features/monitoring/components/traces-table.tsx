import { Fragment, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { getTrace } from '../api/monitor';
import { articlePipelines, nsToDate, traceEnvironment, type ArticleStages } from '../model/panel-data';
import type { TraceDetail, TraceSummary } from '../model/types';
import { WaterfallDialog } from './waterfall-dialog';
import { WorkflowDialog } from './workflow-dialog';

type Loaded =
  { status: 'loading' } | { status: 'error'; message: string } | { status: 'ok'; detail: TraceDetail };

/** Scraper runs; a row expands to the run's per-article pipeline spans. */
export function TracesTable({ traces }: { traces: TraceSummary[] }) {
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const [details, setDetails] = useState<Record<string, Loaded>>({});
  const [waterfall, setWaterfall] = useState<string | null>(null);
  const [workflow, setWorkflow] = useState<ArticleStages | null>(null);

  const load = (id: string) => {
    if (details[id]?.status === 'ok' || details[id]?.status === 'loading') return;
    setDetails((d) => ({ ...d, [id]: { status: 'loading' } }));
    getTrace(id).then(
      (detail) => setDetails((d) => ({ ...d, [id]: { status: 'ok', detail } })),
      (e: unknown) => setDetails((d) => ({ ...d, [id]: { status: 'error', message: (e as Error).message } })),
    );
  };

  if (!traces.length) return <p className="state state-empty">No runs in this range.</p>;
  const wfDetail = waterfall ? details[waterfall] : undefined;
  return (
    <>
      <div className="mon-table-wrap">
        <table className="mon-table">
          <thead>
            <tr>
              <th scope="col" aria-label="expand" />
              <th scope="col">Started</th>
              <th scope="col">Run</th>
              <th scope="col">Duration</th>
              <th scope="col">Environment</th>
              <th scope="col">Spans</th>
            </tr>
          </thead>
          <tbody>
            {traces.map((t) => {
              const open = expanded[t.traceID];
              const d = details[t.traceID];
              return (
                <Fragment key={t.traceID}>
                  <tr>
                    <td>
                      <button
                        type="button"
                        className="icon-button"
                        aria-expanded={Boolean(open)}
                        aria-label={`${open ? 'Collapse' : 'Expand'} run ${t.traceID.slice(0, 8)}`}
                        onClick={() => {
                          setExpanded((e) => ({ ...e, [t.traceID]: !open }));
                          if (!open) load(t.traceID);
                        }}
                      >
                        {open ? (
                          <ChevronDown size={16} aria-hidden />
                        ) : (
                          <ChevronRight size={16} aria-hidden />
                        )}
                      </button>
                    </td>
                    <td>{nsToDate(t.startTimeUnixNano).toLocaleString()}</td>
                    <td>
                      <code>{t.rootTraceName ?? 'scraper.run'}</code>{' '}
                      <span className="mon-muted">{t.traceID.slice(0, 8)}</span>
                    </td>
                    <td>{t.durationMs !== undefined ? `${t.durationMs} ms` : '—'}</td>
                    <td>{traceEnvironment(t) ?? '—'}</td>
                    <td>{t.spanSet?.matched ?? '—'}</td>
                  </tr>
                  {open && (
                    <tr className="mon-expanded">
                      <td colSpan={6}>
                        {!d || d.status === 'loading' ? (
                          <p className="state state-loading" role="status">
                            Loading spans…
                          </p>
                        ) : d.status === 'error' ? (
                          <p className="state state-error" role="alert">
                            {d.message}
                          </p>
                        ) : (
                          <RunArticles
                            articles={articlePipelines(d.detail)}
                            onWaterfall={() => setWaterfall(t.traceID)}
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
  return (
    <div className="mon-run-articles">
      <button type="button" onClick={onWaterfall}>
        Open waterfall
      </button>
      <ul aria-label="article pipelines">
        {articles.map((a) => (
          <li key={a.pipelineSpanId} className={a.error ? 'is-error' : undefined}>
            <span className={`mon-badge ${a.error ? 'mon-badge-error' : 'mon-badge-ok'}`}>
              {a.error ? 'error' : 'ok'}
            </span>{' '}
            <span className="mon-ellipsis">{a.url}</span>{' '}
            <span className="mon-muted">{a.stages.length} stages</span>{' '}
            <button type="button" onClick={() => onWorkflow(a)} aria-label={`Workflow of ${a.url}`}>
              Workflow
            </button>
          </li>
        ))}
        {!articles.length && <li className="mon-muted">No article spans in this run.</li>}
      </ul>
    </div>
  );
}
