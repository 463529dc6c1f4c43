/** Shapes of the /monitor API (see src/http/routes/monitor.routes.ts and README, "Monitoring proxy and dashboard"). */
export type TabId = 'operations' | 'logs' | 'traces' | 'metrics';
export type Datasource = 'log-metrics' | 'logs' | 'traces' | 'metrics';
export type PanelKind = 'stat' | 'timeseries' | 'logs' | 'traces';
export type TimeRange = '6h' | '24h' | '3d' | '7d';
export type Environment = 'all' | 'local' | 'production';

export interface PanelQuery {
  id: string;
  query?: string;
  q?: string;
  start: string | number;
  end: string | number;
  step?: string | number;
  limit?: number;
  direction?: string;
  minDuration?: string;
}

export interface PanelDef {
  id: string;
  tab: TabId;
  title: string;
  kind: PanelKind;
  datasource: Datasource;
  unit?: string;
  level?: string;
  query: PanelQuery;
}

export interface PanelCatalog {
  range: TimeRange;
  env: Environment;
  refresh_interval_seconds: number;
  panels: PanelDef[];
  /** which stores the server has an address for */
  stores?: Record<Store, boolean>;
}

export type BatchResult =
  | { id: string; status: 'ok'; data: unknown; stale: boolean; fetched_at: string }
  | {
      id: string;
      status: 'error';
      error: { code: string; message: string };
      /** when this question last had an answer (an outage shows the age of the panel's data) */
      last_fetched_at?: string;
    };

export interface MatrixSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

export interface StreamResult {
  stream: Record<string, string>;
  values: [string, string][];
}

export interface TraceSummary {
  traceID: string;
  rootServiceName?: string;
  rootTraceName?: string;
  startTimeUnixNano: string;
  durationMs?: number;
  /** the first span set (Tempo answers both this and `spanSets`; newer versions may only send `spanSets`) */
  spanSet?: SpanSet;
  spanSets?: SpanSet[];
}

export interface SpanSet {
  spans?: { spanID: string; attributes?: Attr[] }[];
  matched?: number;
}

export interface Attr {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

export interface SpanJson {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: Attr[];
  /** `code` is 0/1/2 in OTLP JSON, `"STATUS_CODE_UNSET"|"STATUS_CODE_OK"|"STATUS_CODE_ERROR"` from Tempo */
  status?: { code?: number | string; message?: string };
  events?: { name: string; attributes?: Attr[] }[];
}

export interface TraceDetail {
  batches: { resource?: { attributes?: Attr[] }; scopeSpans?: { spans?: SpanJson[] }[] }[];
}

/** A store the dashboard reads (log-metrics panels read the log store). */
export type Store = 'logs' | 'traces' | 'metrics';
export const storeOf = (ds: Datasource): Store =>
  ds === 'traces' ? 'traces' : ds === 'metrics' ? 'metrics' : 'logs';

/**
 * A panel's error: a server code (`bad_query`, `upstream_error`, `upstream_timeout`, `rate_limited`,
 * `upstream_format`) or a client one (`no_result`, `load_failed`), the store's or server's own text,
 * and when the panel last had good data.
 */
export interface PanelError {
  code: string;
  message?: string;
  lastFetchedAt?: number;
}

/** What one panel shows at a moment; `window` is the range asked, [start, end] in unix seconds. */
export type PanelState =
  | { status: 'loading' }
  | { status: 'not-configured'; store: Store }
  | { status: 'error'; error: PanelError }
  | {
      status: 'ok';
      data: unknown;
      fetchedAt: number;
      stale: boolean;
      window: [number, number];
      /** an outage after good data: the data stays, marked stale, with the error */
      error?: PanelError;
    };
