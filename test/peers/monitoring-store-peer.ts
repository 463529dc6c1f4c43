import type { ServerResponse } from 'node:http';
import { HttpPeer, sendJson } from './http-peer.js';

/**
 * A Prometheus + Loki + Tempo speaking peer for the dashboard (browser test and bench), in the stores'
 * documented shapes (test/peers/fixtures/SOURCES.md): Prometheus matrices, Loki matrices for
 * aggregate queries and streams for log queries (with Loki's `stats`), a Tempo search hit (`spanSet`
 * and `spanSets`) and a 3-article trace in Tempo's protobuf JSON (`kind` and `status.code` as enum
 * names, `status: {}` when unset). Per query behaviour ('429', 'garbage', '400', '500') and an
 * upstream delay are knobs.
 */
export const MONITOR_API_KEY = 'dash-key';
const API_KEY = MONITOR_API_KEY;
const NS = 1_000_000n;
const nowNs = () => BigInt(Date.now()) * NS;

/**
 * '400': the store refuses the query (Prometheus: JSON `bad_data`; Loki and Tempo: their plain-text
 * parse error); '500': the store is failing
 */
export type Behaviour = 'ok' | '429' | 'garbage' | '400' | '500';

/** The log store's own words for a refused query (as Loki says it). */
export const LOKI_PARSE_ERROR = 'parse error at line 1, col 13: syntax error: unexpected IDENTIFIER';
/** The trace store's (Tempo's). */
export const TEMPO_PARSE_ERROR =
  'invalid TraceQL query: parse error at line 1, col 17: syntax error: unexpected IDENTIFIER';
/** The metrics store's (Prometheus', in its JSON error body). */
export const PROM_PARSE_ERROR = 'invalid parameter "query": 1:27: parse error: unclosed left parenthesis';

const LOKI_STATS = {
  summary: {
    bytesProcessedPerSecond: 0,
    linesProcessedPerSecond: 0,
    totalBytesProcessed: 0,
    totalLinesProcessed: 0,
    execTime: 0.001,
    queueTime: 0,
  },
};
/** Go's http.Error: text/plain and a newline */
const goError = (res: ServerResponse, status: number, text: string) =>
  void res
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
    .end(`${text}\n`);

/** A Loki + Tempo peer: matrix for aggregate queries, streams for log queries, traces for Tempo. */
export function storePeer() {
  const behaviour = new Map<string, Behaviour>();
  let delayMs = 0;
  let bulkSpans = 0;
  const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  const peer = new HttpPeer(async (req, res) => {
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const q = req.query.get('query') ?? req.query.get('q') ?? '';
    const b = behaviour.get(q) ?? 'ok';
    if (b === '429') return sendJson(res, 429, { error: 'too many requests' });
    if (b === 'garbage') return sendJson(res, 200, { totally: 'different', shape: [1, 2, 3] });
    if (b === '400') {
      if (req.path.endsWith('/loki/api/v1/query_range')) return goError(res, 400, LOKI_PARSE_ERROR);
      if (req.path.endsWith('/api/search')) return goError(res, 400, TEMPO_PARSE_ERROR);
      return sendJson(res, 400, { status: 'error', errorType: 'bad_data', error: PROM_PARSE_ERROR });
    }
    if (b === '500') return goError(res, 500, 'internal error');
    const t = Math.floor(Date.now() / 1000);
    // Prometheus (the Metrics tab): the label its panels group by, over the last 2 minutes
    if (req.path.endsWith('/api/v1/query_range') && !req.path.endsWith('/loki/api/v1/query_range')) {
      const label = /by \((\w+)\)/.exec(q)?.[1];
      const series = (value: string, n: number) => ({
        metric: label ? { [label]: value } : {},
        values: [
          [t - 120, String(n)],
          [t - 60, String(n + 2)],
          [t, String(n + 3)],
        ],
      });
      return sendJson(res, 200, {
        status: 'success',
        data: {
          resultType: 'matrix',
          result:
            label === 'status' ? [series('completed', 1)] : [series('published', 4), series('analysis', 1)],
        },
      });
    }
    if (req.path.endsWith('/loki/api/v1/query_range')) {
      const isLog = q.trimStart().startsWith('{') && !/\b(count_over_time|rate|sum|avg|max|min)\b/.test(q);
      if (!isLog)
        return sendJson(res, 200, {
          status: 'success',
          data: {
            resultType: 'matrix',
            result: [
              {
                metric: { stage: 'analysis' },
                values: [
                  [t - 120, '2'],
                  [t - 60, '5'],
                  [t, '7'],
                ],
              },
            ],
            stats: LOKI_STATS,
          },
        });
      const line = (event: string, level: string) =>
        JSON.stringify({
          level,
          event,
          correlation_id: 'corr-123',
          run_id: 'run-1',
          time: new Date().toISOString(),
          msg: `${event} happened`,
        });
      return sendJson(res, 200, {
        status: 'success',
        data: {
          resultType: 'streams',
          result: [
            {
              stream: { service_name: 'article-intel', level: 'error' },
              values: [
                [String(nowNs()), line('article.analysis.failed', 'error')],
                [String(nowNs() - 5n * NS * 1000n), line('scraper.run.completed', 'info')],
              ],
            },
          ],
          stats: LOKI_STATS,
        },
      });
    }
    if (req.path.endsWith('/api/search')) {
      const spanSet = {
        spans: [
          {
            spanID: 'root',
            startTimeUnixNano: String(nowNs() - 60_000n * NS),
            durationNanos: '1500000000',
            attributes: [{ key: 'deployment.environment', value: { stringValue: 'production' } }],
          },
        ],
        matched: 12,
      };
      return sendJson(res, 200, {
        traces: [
          {
            traceID: traceId,
            rootServiceName: 'article-intel',
            rootTraceName: 'scraper.run',
            startTimeUnixNano: String(nowNs() - 60_000n * NS),
            durationMs: 1500,
            spanSet,
            spanSets: [spanSet],
          },
        ],
        metrics: { inspectedBytes: '292781', completedJobs: 1, totalJobs: 1 },
      });
    }
    if (req.path.startsWith('/api/traces/'))
      return sendJson(res, 200, {
        batches: [{ resource: { attributes: [] }, scopeSpans: [{ spans: traceSpans(traceId, bulkSpans) }] }],
      });
    sendJson(res, 404, { error: 'no route' });
  });
  return {
    peer,
    behaviour,
    setDelay: (ms: number) => (delayMs = ms),
    /** extra child spans of the run root in the trace detail (for the 5,000-span waterfall) */
    setBulkSpans: (n: number) => (bulkSpans = n),
  };
}

function traceSpans(traceId: string, bulk = 0) {
  const t0 = nowNs() - 60_000n * NS;
  const s = (
    id: string,
    parent: string | undefined,
    name: string,
    start: number,
    end: number,
    extra: object = {},
  ) => ({
    traceId,
    spanId: id,
    ...(parent ? { parentSpanId: parent } : {}),
    name,
    startTimeUnixNano: String(t0 + BigInt(start) * NS),
    endTimeUnixNano: String(t0 + BigInt(end) * NS),
    kind: 'SPAN_KIND_INTERNAL',
    attributes: [] as { key: string; value: { stringValue: string } }[],
    status: {} as { code?: string; message?: string },
    ...extra,
  });
  const spans = [s('r', undefined, 'scraper.run', 0, 1500)];
  for (const [i, stage] of [
    'pipeline.discover',
    'pipeline.fetch',
    'pipeline.dedup',
    'pipeline.publish_articles',
  ].entries())
    spans.push(s(`p${i}`, 'r', stage, i * 100, i * 100 + 90));
  for (let a = 1; a <= 3; a++) {
    spans.push(
      s(`a${a}`, 'r', 'article.pipeline', 400 + a * 10, 1400, {
        attributes: [{ key: 'article.url', value: { stringValue: `https://feed.test/article-${a}` } }],
      }),
    );
    spans.push(s(`a${a}s`, `a${a}`, 'article.scraped.handle', 410 + a * 10, 420 + a * 10));
    if (a === 2)
      spans.push(
        s(`a${a}f`, `a${a}`, 'article.analysis_failed.handle', 500, 520, {
          status: { code: 'STATUS_CODE_ERROR', message: 'model refused the request' },
        }),
      );
    else spans.push(s(`a${a}c`, `a${a}`, 'article.analysis_completed.handle', 500, 600));
  }
  // bulk spans nest two deep: a group span every 50, the others children of their group
  for (let i = 0; i < bulk; i++) {
    const group = i - (i % 50);
    const at = 600 + (i % 800);
    spans.push(s(`b${i}`, i === group ? 'r' : `b${group}`, `bulk.span.${i}`, at, at + 5));
  }
  return spans;
}

export const monitorEnv = (url: string) => ({
  MONITOR_URL: url,
  MONITOR_API_KEY: API_KEY,
  MONITOR_LOGS_URL: url,
  MONITOR_LOGS_USER: 'logs-user',
  MONITOR_TRACES_URL: url,
  MONITOR_TRACES_USER: 'traces-user',
  MONITOR_METRICS_URL: url,
  MONITOR_METRICS_USER: 'metrics-user',
});
