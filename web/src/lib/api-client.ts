/**
 * The one API client: every call goes through the same-origin `/api/proxy`, every failure becomes
 * an ApiError, and a 401 on a call that needs a session sends the reader to the login page.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly correlationId?: string,
    readonly details?: unknown[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** 'return' leaves a 401 to the caller (the session probe); default sends to the login page */
  onUnauthorized?: 'login' | 'return';
  signal?: AbortSignal;
}

let unauthorizedHandler: () => void = () => {};
/** The router registers how to go to the login page; the client stays free of routing. */
export function onUnauthorized(handler: () => void) {
  unauthorizedHandler = handler;
}
/** For a caller that sends its own request (a stream): its 401 goes to the login page like ours. */
export function reportUnauthorized() {
  unauthorizedHandler();
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** The ApiError of a failed response (its JSON error body, else its status). */
export async function toError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as {
      error?: { code?: string; message?: string; correlation_id?: string; details?: unknown[] };
    };
    const e = body.error ?? {};
    return new ApiError(
      res.status,
      e.code ?? 'http_error',
      e.message ?? res.statusText,
      e.correlation_id,
      e.details,
    );
  } catch {
    return new ApiError(res.status, 'http_error', res.statusText || `HTTP ${res.status}`);
  }
}

/** Sends one request to `url` (a same-origin path) and decodes the JSON answer. */
export async function request<T>(url: string, opts: RequestOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url + buildQuery(opts.query), {
      method: opts.method ?? 'GET',
      headers:
        opts.body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', 'The server could not be reached.');
  }
  if (!res.ok) {
    const error = await toError(res);
    if (res.status === 401 && (opts.onUnauthorized ?? 'login') === 'login') unauthorizedHandler();
    throw error;
  }
  if (res.status === 204 || res.headers.get('content-length') === '0') return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A call to the backend at `path` (e.g. `/articles`) through the same-origin forwarder. */
export function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  return request<T>(`/api/proxy${path}`, opts);
}
