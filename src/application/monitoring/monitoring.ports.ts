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
    /** the store's HTTP status, when it answered one */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

/** An upstream answer: the parsed JSON and the text it was parsed from. */
export interface MonitorAnswer {
  body: unknown;
  text: string;
}

/**
 * The three stores, reached through fixed paths, each with its own Basic auth or without auth when
 * it has no user (a self-hosted store).
 */
export interface MonitorUpstream {
  configured(ds: DatasourceId): boolean;
  /** GET a fixed upstream path with the given query parameters; resolves with the parsed JSON */
  get(
    ds: DatasourceId,
    path: string,
    params: Record<string, string | number | undefined>,
  ): Promise<MonitorAnswer>;
}

/** A last good answer, kept as its text so that its memory is its size. */
export interface LastGood {
  text: string;
  fetchedAt: Date;
}

/**
 * The last good answer per question, for answering while an upstream rate-limits us. Bounded by
 * bytes: questions come from clients, answers can be megabytes.
 */
export interface LastGoodStore {
  get(key: string): LastGood | undefined;
  set(key: string, value: LastGood): void;
}
