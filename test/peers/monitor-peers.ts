import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { HttpPeer, sendJson, type RecordedRequest } from './http-peer.js';

/**
 * 'bad-query': the store refuses the query in its own words (Prometheus: 400 JSON `bad_data`; Loki and
 * Tempo: 400 plain text); 'unauthorized': 401 as a store with auth on answers a missing or wrong key.
 */
export type PeerMode =
  | 'ok'
  | '429'
  | '500'
  | 'garbage'
  | 'not-json'
  | 'redirect'
  | 'slow-drip'
  | 'hang'
  | 'bad-query'
  | 'unauthorized';

/** Answers in the stores' documented shapes: see fixtures/SOURCES.md. */
const fixture = <T = Record<string, unknown>>(name: string): T =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;

/** Prometheus' range query answer (matrix). */
export const MATRIX = fixture('prometheus-query-range-matrix.json');
/** Loki's answer to a metric (aggregate) query: a matrix with Loki's `stats`. */
export const LOKI_MATRIX = fixture('loki-query-range-matrix.json');
/** Loki's answer to a log query: streams with `stats`. */
export const STREAMS = fixture('loki-query-range-streams.json');
/** Tempo's search answer: both `spanSet` and `spanSets`, and `metrics`. */
export const SEARCH = fixture('tempo-search.json');
/** Tempo's `GET /api/traces/<id>`: protobuf JSON (base64 ids, enum names) under `batches`. */
export const TRACE_BATCHES = fixture<{ batches: unknown[] }>('tempo-trace-v1.json');
/** The trace id the peer holds; any other id is a 404, as Tempo answers an unknown trace. */
export const TRACE_ID = '5b8efff798038103d269b633813fc700';

/** Prometheus refusing a PromQL mistake (HTTP 400). */
export const PROM_PARSE_ERROR = {
  status: 'error',
  errorType: 'bad_data',
  error: 'invalid parameter "query": 1:27: parse error: unclosed left parenthesis',
};
/** Loki refusing a LogQL mistake (HTTP 400, text/plain, Go's http.Error adds the newline). */
export const LOKI_PARSE_ERROR = 'parse error at line 1, col 13: syntax error: unexpected IDENTIFIER';
/** Tempo refusing a TraceQL mistake (HTTP 400, plain text). */
export const TEMPO_PARSE_ERROR =
  'invalid TraceQL query: parse error at line 1, col 17: syntax error: unexpected IDENTIFIER';

const goHttpError = (res: ServerResponse, status: number, text: string) => {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end(`${text}\n`);
};

/**
 * One loopback server speaking the Prometheus, Loki and Tempo query APIs in their documented shapes
 * (fixtures/). `modes` picks a failure per query expression (`query` or `q`, '*' for all);
 * `latencyMs` delays every answer; `redirectTo` is where a 'redirect' points.
 */
export class MonitorStorePeer {
  readonly peer: HttpPeer;
  readonly modes = new Map<string, PeerMode>();
  latencyMs = 0;
  redirectTo = 'http://127.0.0.1:9/';
  traceBody: unknown = TRACE_BATCHES;
  /** serve only under this path prefix (a store run with a route prefix); others get Go's 404 */
  requirePrefix = '';

  constructor() {
    this.peer = new HttpPeer((req, res) => this.handle(req, res));
  }

  get url() {
    return this.peer.url;
  }
  get requests() {
    return this.peer.requests;
  }

  async start() {
    await this.peer.start();
    return this;
  }
  stop() {
    return this.peer.stop();
  }

  private async handle(req: RecordedRequest, res: ServerResponse): Promise<void> {
    if (this.latencyMs) await new Promise((r) => setTimeout(r, this.latencyMs));
    if (this.requirePrefix && !req.path.startsWith(`${this.requirePrefix}/`))
      return goHttpError(res, 404, '404 page not found');
    const expr = req.query.get('query') ?? req.query.get('q') ?? '';
    const mode = this.modes.get(expr) ?? this.modes.get('*') ?? 'ok';
    if (mode === '429') return sendJson(res, 429, { error: 'rate limited' });
    if (mode === '500') return sendJson(res, 500, { error: 'boom' });
    if (mode === 'garbage') return sendJson(res, 200, { unexpected: true });
    if (mode === 'not-json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
      return;
    }
    if (mode === 'redirect') {
      res.writeHead(302, { location: this.redirectTo });
      res.end();
      return;
    }
    if (mode === 'hang') return; // never answers
    if (mode === 'unauthorized') {
      res.writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Basic' });
      res.end('Unauthorized\n');
      return;
    }
    if (mode === 'bad-query') {
      if (req.path.endsWith('/loki/api/v1/query_range')) return goHttpError(res, 400, LOKI_PARSE_ERROR);
      if (req.path.endsWith('/api/search')) return goHttpError(res, 400, TEMPO_PARSE_ERROR);
      return sendJson(res, 400, PROM_PARSE_ERROR);
    }
    if (mode === 'slow-drip') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const body = JSON.stringify(MATRIX);
      for (const ch of body) {
        if (res.destroyed) return;
        res.write(ch);
        await new Promise((r) => setTimeout(r, 50));
      }
      res.end();
      return;
    }
    if (req.path.endsWith('/loki/api/v1/query_range')) {
      return sendJson(
        res,
        200,
        /^\s*\{/.test(expr) && !/over_time|rate\(/.test(expr) ? STREAMS : LOKI_MATRIX,
      );
    }
    if (req.path.endsWith('/api/v1/query_range')) return sendJson(res, 200, MATRIX);
    if (req.path.endsWith('/api/search')) return sendJson(res, 200, SEARCH);
    if (req.path.includes('/api/traces/')) {
      // Tempo: 404 for a trace it does not hold
      if (req.path.endsWith(`/api/traces/${TRACE_ID}`)) return sendJson(res, 200, this.traceBody);
      res.writeHead(404);
      res.end();
      return;
    }
    // Go's mux: 404 page not found (a store URL without its route prefix lands here)
    goHttpError(res, 404, '404 page not found');
  }
}

/** The MONITOR_* environment pointing every datasource at one peer. */
export function monitorEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    MONITOR_URL: url,
    MONITOR_API_KEY: 'secret-api-key-123',
    MONITOR_METRICS_URL: `${url}/prom`,
    MONITOR_METRICS_USER: 'metrics-user',
    MONITOR_LOGS_URL: url,
    MONITOR_LOGS_USER: 'logs-user',
    MONITOR_TRACES_URL: url,
    MONITOR_TRACES_USER: 'traces-user',
    MONITOR_TIMEOUT_MS: '1500',
    ...extra,
  };
}
