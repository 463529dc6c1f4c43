/**
 * How the service authenticates to a monitoring store (metrics, logs, traces) or to the OTLP ingest,
 * one rule for all of them (docs/decisions/0092-monitoring-stores-without-auth.md):
 *
 * - no URL: the store is not used;
 * - URL only: used without an Authorization header (a self-hosted Prometheus, Loki or Tempo);
 * - URL, user and MONITOR_API_KEY: Basic auth `user:MONITOR_API_KEY` (Grafana Cloud and the like);
 * - URL and user without MONITOR_API_KEY: not used, and the start-up line says why (the admin meant
 *   auth: sending none would only earn 401s);
 * - URL and MONITOR_API_KEY without a user: used without auth. MONITOR_API_KEY is shared by every
 *   store, so it is never sent to a store the admin did not give a user: a key alone is not a bearer
 *   token.
 */
export interface StoreVars {
  /** e.g. MONITOR_METRICS_URL */
  url: string;
  /** e.g. MONITOR_METRICS_USER */
  user: string;
}

export type StoreAuth =
  | { use: false; why: string }
  | {
      use: true;
      /** the store's URL (present whenever the store is used) */
      url: string;
      /** the header value, or undefined when the store is used without auth */
      authorization: string | undefined;
      /** for the start-up line: how the store is reached */
      how: string;
    };

export function storeAuth(
  vars: StoreVars,
  url: string | undefined,
  user: string | undefined,
  apiKey: string | undefined,
): StoreAuth {
  if (!url) return { use: false, why: `${vars.url} is not set` };
  if (user && !apiKey)
    return {
      use: false,
      why: `${vars.user} is set but MONITOR_API_KEY is not (set both for Basic auth, or neither for a store without auth)`,
    };
  if (user && apiKey)
    return {
      use: true,
      url,
      authorization: `Basic ${Buffer.from(`${user}:${apiKey}`).toString('base64')}`,
      how: `Basic auth as ${vars.user}`,
    };
  return {
    use: true,
    url,
    authorization: undefined,
    how: apiKey ? `no auth (${vars.user} is not set, so MONITOR_API_KEY is not sent)` : 'no auth',
  };
}

/** The URL for a log line: scheme, host and path, never credentials or a query. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(not a URL)';
  }
}
