import http from 'node:http';
import type https from 'node:https';
import { Readable } from 'node:stream';
import type zlib from 'node:zlib';

/**
 * The fetch the model SDK sends its requests with: node:http(s) on keep-alive agents, answered as a
 * WHATWG `Response`. The SDK needs no more of fetch than a request out and a Response back, and
 * Node's fetch costs ~0.25 ms of CPU a call in request objects, header validation and its fetch
 * algorithm, about a quarter of the pipeline's own CPU an article on PostgreSQL
 * (docs/decisions/0170-model-requests-on-node-http.md).
 *
 * What it does differently from fetch, on purpose:
 * - an answer is read whole before the Response is handed back, and one larger than `maxBytes`
 *   fails the call (`ModelAnswerTooLargeError`): a model server's answer is outside input. A
 *   streamed answer (`text/event-stream`) is handed back as it arrives, as fetch would.
 * - redirects are not followed: a model API does not redirect, and a 3xx reaches the SDK as an
 *   error status it names.
 * - it asks for no compression; a server that compresses anyway (gzip, deflate, br) is decoded.
 * - a body other than a string or bytes (a form upload), or a Request as input, goes to the
 *   global fetch unchanged.
 */
export interface ModelFetchOptions {
  /** the largest answer read whole, in bytes; default 32 MiB */
  maxBytes?: number;
}

/** the answer of a model server is larger than the fetch reads */
export class ModelAnswerTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the model server's answer is larger than ${limitBytes} bytes`);
    this.name = 'ModelAnswerTooLargeError';
  }
}

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** statuses whose Response has no body (the constructor refuses one) */
const NO_BODY = new Set([204, 205, 304]);

/**
 * node:https (and with it TLS) and node:zlib are loaded on first use: the idle process holds
 * neither for this (docs/decisions/0003-idle-memory.md)
 */
const httpsModule = () => process.getBuiltinModule('node:https') as typeof https;
const zlibModule = () => process.getBuiltinModule('node:zlib') as typeof zlib;

/** kept-alive sockets per scheme, shared by every provider's client in the process */
let httpAgent: http.Agent | undefined;
let httpsAgent: https.Agent | undefined;
const agentFor = (secure: boolean): http.Agent =>
  secure
    ? (httpsAgent ??= new (httpsModule().Agent)({ keepAlive: true, scheduling: 'lifo' }))
    : (httpAgent ??= new http.Agent({ keepAlive: true, scheduling: 'lifo' }));

type Body = string | Uint8Array | ArrayBuffer | null | undefined;
const sendable = (b: unknown): b is Body =>
  b === undefined ||
  b === null ||
  typeof b === 'string' ||
  b instanceof Uint8Array ||
  b instanceof ArrayBuffer;

function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  if (init instanceof Headers) init.forEach((v, k) => (out[k] = v));
  else if (Array.isArray(init)) for (const [k, v] of init) out[k.toLowerCase()] = v;
  else for (const [k, v] of Object.entries(init)) out[k.toLowerCase()] = v;
  return out;
}

function responseHeaders(raw: string[]): Headers {
  const h = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      h.append(raw[i]!, raw[i + 1]!);
    } catch {
      // a header the WHATWG Headers refuses (a byte outside its range) is left out
    }
  }
  return h;
}

/** the body as sent, decoded when the server compressed it */
function decoded(res: http.IncomingMessage, headers: Headers): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const z = encoding ? zlibModule() : null;
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? z!.createGunzip()
      : encoding === 'deflate'
        ? z!.createInflate()
        : encoding === 'br'
          ? z!.createBrotliDecompress()
          : null;
  if (!decoder) return res;
  headers.delete('content-encoding');
  headers.delete('content-length');
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

export function modelFetch(opts: ModelFetchOptions = {}): typeof fetch {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  return (input, init) => {
    const body = init?.body;
    if (input instanceof Request || !sendable(body)) return fetch(input, init);
    const url = input instanceof URL ? input : new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsModule() : http).request(
        url,
        {
          method: init?.method ?? 'GET',
          headers: headerRecord(init?.headers),
          agent: agentFor(secure),
          ...(signal ? { signal } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          // a status a Response cannot carry (a server's own 6xx-9xx) fails the call, not the process
          if (status < 200 || status > 599) {
            res.destroy();
            return reject(new Error(`the model server answered with status ${status}`));
          }
          const headers = responseHeaders(res.rawHeaders);
          const answer = (body: BodyInit | null) => {
            try {
              resolve(new Response(body, { status, statusText: res.statusMessage ?? '', headers }));
            } catch {
              // a reason phrase the WHATWG Response refuses: the status alone
              resolve(new Response(body, { status, headers }));
            }
          };
          if (NO_BODY.has(status) || init?.method === 'HEAD') {
            // nothing is read from it: a connection lost now has no one to tell
            res.on('error', () => {});
            res.resume();
            return answer(null);
          }
          const stream = decoded(res, headers);
          if ((res.headers['content-type'] ?? '').toLowerCase().includes('text/event-stream'))
            return answer(Readable.toWeb(stream) as ReadableStream<Uint8Array>);
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              stream.destroy(new ModelAnswerTooLargeError(maxBytes));
              res.destroy();
            } else chunks.push(chunk);
          });
          stream.on('error', reject);
          res.on('error', reject);
          stream.on('end', () => answer(Buffer.concat(chunks, size)));
        },
      );
      request.on('error', reject);
      request.end(body instanceof ArrayBuffer ? new Uint8Array(body) : (body ?? undefined));
    });
  };
}
