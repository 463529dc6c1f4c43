import type { LocalAdminFile } from './local-admin-channel.js';

/** what a call answers: the body of a 2xx, or the API's error code and message */
export type ServiceAnswer<T> =
  | { ok: true; status: number; body: T }
  | {
      ok: false;
      status: number;
      code: string;
      message: string;
      details?: { path?: string; message: string }[];
    };

/** One call of the running service's admin API through the local channel (the CLI's side). */
export class LocalAdminClient {
  readonly pid: number;

  constructor(
    private readonly channel: LocalAdminFile,
    private readonly timeoutMs = 30_000,
  ) {
    this.pid = channel.pid;
  }

  async call<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<ServiceAnswer<T>> {
    const res = await fetch(this.channel.url + path, {
      method,
      headers: {
        authorization: `Local ${this.channel.secret}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.ok) return { ok: true, status: res.status, body: parsed as T };
    const error = (
      parsed as {
        error?: { code?: string; message?: string; details?: { path?: string; message: string }[] };
      } | null
    )?.error;
    return {
      ok: false,
      status: res.status,
      code: error?.code ?? `http_${res.status}`,
      message: error?.message ?? `the service answered ${res.status}`,
      details: error?.details,
    };
  }
}
