import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from '../http/plugins/client-ip.js';

/** Headers that belong to one hop, or that the forwarder sets itself. */
const DROP_REQUEST = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  // the api authenticates by bearer token only: no cookie of this site ever reaches it
  'cookie',
  'authorization',
  'accept-encoding',
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
]);
const DROP_RESPONSE = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'content-length',
  'set-cookie',
  'trailer',
  'upgrade',
]);

export interface ForwardOptions {
  /** backend base URL, e.g. http://127.0.0.1:8000 */
  apiUrl: string;
  trustedProxies: readonly string[];
  timeoutMs: number;
}

export interface Upstream {
  status: number;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

/** One request to the backend on behalf of the browser, with the browser's address in X-Forwarded-For. */
export async function callBackend(
  req: FastifyRequest,
  opts: ForwardOptions,
  target: {
    method: string;
    pathAndQuery: string;
    token?: string;
    /** the caller's own Authorization header, carried as it came (the Google Reader API's paths only) */
    authorization?: string;
    body?: Buffer | string;
  },
): Promise<Upstream> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || DROP_REQUEST.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set('x-forwarded-for', clientIp(req, opts.trustedProxies));
  headers.set('x-forwarded-proto', req.protocol);
  if (req.headers.host) headers.set('x-forwarded-host', req.headers.host);
  headers.set('x-correlation-id', String(req.id));
  if (target.token) headers.set('authorization', `Bearer ${target.token}`);
  else if (target.authorization) headers.set('authorization', target.authorization);
  const hasBody = target.body !== undefined && !['GET', 'HEAD'].includes(target.method);
  if (hasBody && typeof target.body === 'string') headers.set('content-type', 'application/json');
  // the request and its whole answer within timeoutMs; an event stream (an answer written as the
  // model thinks) instead within timeoutMs between two of its bytes: the backend sends a comment
  // line every 15 s while it waits, so a live stream is never cut and a dead one is
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () => controller.abort(new DOMException('the backend did not answer in time', 'TimeoutError')),
      opts.timeoutMs,
    );
    timer.unref?.();
  };
  arm();
  let res: Response;
  try {
    res = await fetch(opts.apiUrl.replace(/\/+$/, '') + target.pathAndQuery, {
      method: target.method,
      headers,
      body: !hasBody
        ? undefined
        : typeof target.body === 'string'
          ? target.body
          : new Uint8Array(target.body!),
      redirect: 'manual',
      signal: controller.signal,
    });
  } catch (err) {
    clearTimeout(timer);
    throw err;
  }
  if (!res.body || !/^text\/event-stream\b/i.test(res.headers.get('content-type') ?? ''))
    return { status: res.status, headers: res.headers, body: res.body };
  arm();
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        arm();
        out.enqueue(chunk);
      },
      flush: () => clearTimeout(timer),
    }),
  );
  return { status: res.status, headers: res.headers, body };
}

/** Relays the backend's answer (status, safe headers, streamed body) to the browser. */
export function relay(reply: FastifyReply, upstream: Upstream, htmlCsp?: string): FastifyReply {
  reply.status(upstream.status);
  upstream.headers.forEach((value, name) => {
    if (!DROP_RESPONSE.has(name)) reply.header(name, value);
  });
  // an HTML page of the backend (the OpenAPI UI) is a page of this site: it gets a CSP as well
  if (
    htmlCsp &&
    /^text\/html/i.test(upstream.headers.get('content-type') ?? '') &&
    !upstream.headers.has('content-security-policy')
  )
    reply.header('content-security-policy', htmlCsp);
  if (!upstream.body || upstream.status === 204 || upstream.status === 304) return reply.send();
  return reply.send(Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream));
}
