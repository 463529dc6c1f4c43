export type DatasourceId = 'metrics' | 'logs' | 'traces';

export type UpstreamErrorCode =
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_timeout'
  | 'upstream_format'
  /** the store refused the query itself (a PromQL/LogQL/TraceQL mistake): its reason is in `message` */
  | 'bad_query';

/** A failed upstream call; `message` is safe to show (no URL, no credentials). */
export class UpstreamError extends Error {
  constructor(
    readonly code: UpstreamErrorCode,
    message: string,
    /** what was received, for the server-side log only */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** The three hosted stores, reached with per-datasource Basic auth through fixed paths. */
export interface MonitorUpstream {
  configured(ds: DatasourceId): boolean;
  /** GET a fixed upstream path with the given query parameters; resolves with the parsed JSON */
  get(ds: DatasourceId, path: string, params: Record<string, string | number | undefined>): Promise<unknown>;
}
