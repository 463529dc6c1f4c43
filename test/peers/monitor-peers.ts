import type { ServerResponse } from 'node:http';
import { HttpPeer, sendJson, type RecordedRequest } from './http-peer.js';

export type PeerMode = 'ok' | '429' | '500' | 'garbage' | 'not-json' | 'redirect' | 'slow-drip' | 'hang';

export const MATRIX = {
  status: 'success',
  data: {
    resultType: 'matrix',
    result: [
      {
        metric: { stage: 'analysis' },
        values: [
          [1700000000, '3'],
          [1700000060, '4'],
        ],
      },
    ],
  },
};
export const STREAMS = {
  status: 'success',
  data: {
    resultType: 'streams',
    result: [
      {
        stream: { level: 'error' },
        values: [['1700000000000000000', '{"event":"article.analysis.failed","correlation_id":"c1"}']],
      },
    ],
  },
};
export const SEARCH = {
  traces: [
    {
      traceID: 'abc123',
      rootServiceName: 'article-intel',
      rootTraceName: 'scraper.run',
      startTimeUnixNano: '1700000000000000000',
      durationMs: 1200,
      spanSet: {
        spans: [
          {
            spanID: 's1',
            attributes: [{ key: 'deployment.environment', value: { stringValue: 'production' } }],
          },
        ],
        matched: 1,
      },
    },
  ],
};
export const TRACE_BATCHES = {
  batches: [
    {
      resource: { attributes: [] },
      scopeSpans: [
        {
          spans: [
            {
              traceId: 'abc123',
              spanId: 's1',
              name: 'scraper.run',
              startTimeUnixNano: '1',
              endTimeUnixNano: '2',
              attributes: [],
              status: { code: 0 },
            },
          ],
        },
      ],
    },
  ],
};

/**
 * One loopback server speaking the Prometheus, Loki and Tempo query APIs. `modes` picks a failure
 * per query expression (`query` or `q`); `latencyMs` delays every answer; `redirectTo` is where a
 * 'redirect' points.
 */
export class MonitorStorePeer {
  readonly peer: HttpPeer;
  readonly modes = new Map<string, PeerMode>();
  latencyMs = 0;
  redirectTo = 'http://127.0.0.1:9/';
  traceBody: unknown = TRACE_BATCHES;

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
      return sendJson(res, 200, /^\s*\{/.test(expr) && !/over_time|rate\(/.test(expr) ? STREAMS : MATRIX);
    }
    if (req.path.endsWith('/api/v1/query_range')) return sendJson(res, 200, MATRIX);
    if (req.path.endsWith('/api/search')) return sendJson(res, 200, SEARCH);
    if (req.path.includes('/api/traces/')) return sendJson(res, 200, this.traceBody);
    sendJson(res, 404, { error: `no route ${req.path}` });
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
