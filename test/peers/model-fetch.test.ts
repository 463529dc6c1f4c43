/**
 * The model SDK's fetch (src/infrastructure/llm/model-fetch.ts) against a real HTTP server on
 * loopback, alone and under the `openai` SDK itself: answers as fetch gives them (statuses,
 * headers, JSON, compressed bodies, streamed events), the bound on an answer's size, aborts, and
 * the requests that go to the global fetch instead.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelAnswerTooLargeError, modelFetch } from '../../src/infrastructure/llm/model-fetch.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const completion = (content: string) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
  });

describe('model fetch against a loopback server', () => {
  const seen: Seen[] = [];
  /** resolves the streamed answer's second event once the client has read the first */
  let releaseSecond: () => void = () => {};
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = new URL(req.url!, 'http://x').pathname;
      if (path === '/json') {
        res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r-1' });
        res.end(JSON.stringify({ echo: body }));
      } else if (path === '/gzip' || path === '/br') {
        const text = JSON.stringify({ compressed: 'ü'.repeat(2000) });
        const packed = path === '/gzip' ? zlib.gzipSync(text) : zlib.brotliCompressSync(text);
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': path.slice(1) });
        res.end(packed);
      } else if (path === '/empty') {
        res.writeHead(204);
        res.end();
      } else if (path === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const piece = Buffer.alloc(64 * 1024, 'a');
        // more than the client's limit, sent until the client hangs up
        let sent = 0;
        const more = () => {
          while (sent < 64 && res.write(piece)) sent++;
          if (sent < 64) res.once('drain', more);
          else res.end();
        };
        more();
      } else if (path.startsWith('/slow')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"part":');
        // never ends unless the client goes
      } else if (path === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        releaseSecond = () => res.end('data: second\n\n');
      } else if (path === '/v1/chat/completions') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          completion(
            `answer to ${(JSON.parse(body) as { messages: { content: string }[] }).messages[0]!.content}`,
          ),
        );
      } else if (path === '/v1/unavailable/chat/completions') {
        res.writeHead(503, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        res.end(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }));
      } else if (path === '/redirect') {
        res.writeHead(307, { location: '/json' });
        res.end();
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const send = modelFetch({ maxBytes: 1024 * 1024 });

  it('sends the method, headers and body, and answers with status, headers and JSON', async () => {
    const res = await send(`${base}/json?x=1`, {
      method: 'POST',
      headers: new Headers({ 'Content-Type': 'application/json', Authorization: 'Bearer k' }),
      body: '{"q":"ä"}',
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('r-1');
    expect(await res.json()).toEqual({ echo: '{"q":"ä"}' });
    const request = seen.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', url: '/json?x=1', body: '{"q":"ä"}' });
    expect(request.headers.authorization).toBe('Bearer k');
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('sends a plain object of headers and a body of bytes', async () => {
    const res = await send(new URL(`${base}/json`), {
      method: 'POST',
      headers: { 'X-Tag': 'bytes' },
      body: new TextEncoder().encode('raw bytes'),
    });
    expect(await res.json()).toEqual({ echo: 'raw bytes' });
    expect(seen.at(-1)!.headers['x-tag']).toBe('bytes');
  });

  it('decodes an answer the server compressed anyway (gzip, br)', async () => {
    for (const path of ['/gzip', '/br']) {
      const res = await send(`${base}${path}`);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.json()).toEqual({ compressed: 'ü'.repeat(2000) });
    }
  });

  it('answers 204 with no body', async () => {
    const res = await send(`${base}/empty`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('hands a redirect back to the caller instead of following it', async () => {
    const res = await send(`${base}/redirect`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/json');
  });

  it('refuses an answer larger than its limit, and the connection is let go', async () => {
    await expect(send(`${base}/big`)).rejects.toBeInstanceOf(ModelAnswerTooLargeError);
    // the next request still works
    expect((await send(`${base}/json`, { method: 'POST', body: 'after' })).status).toBe(201);
  });

  it('rejects with the abort when the signal fires during the answer', async () => {
    const controller = new AbortController();
    const pending = send(`${base}/slow`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(send(`${base}/json`, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('hands an event stream back as it arrives', async () => {
    const res = await send(`${base}/events`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    // the first event is read while the server still holds the second
    expect(decoder.decode((await reader.read()).value)).toBe('data: first\n\n');
    releaseSecond();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('sends a form upload with the global fetch', async () => {
    const form = new FormData();
    form.append('file', new Blob(['content']), 'a.txt');
    const res = await send(`${base}/json`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    expect(seen.at(-1)!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.at(-1)!.body).toContain('content');
  });

  it('fails a refused connection as an error the caller can tell', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(send(`http://127.0.0.1:${port}/x`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('fails a status no Response can carry, and the process goes on', async () => {
    const raw = net.createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 999 Odd\r\ncontent-length: 2\r\n\r\nno'));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const port = (raw.address() as AddressInfo).port;
      await expect(send(`http://127.0.0.1:${port}/x`)).rejects.toThrow(/status 999/);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('speaks TLS to an https base URL', async () => {
    let first: number | undefined;
    const raw = net.createServer((socket) => {
      socket.once('data', (chunk: Buffer) => {
        first = chunk[0];
        socket.destroy();
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const port = (raw.address() as AddressInfo).port;
      await expect(
        send(`https://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body: '{}' }),
      ).rejects.toThrow();
      // a TLS handshake record (ClientHello), not an HTTP request line
      expect(first).toBe(0x16);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('serves the openai SDK: completions, concurrent calls on kept-alive sockets, error statuses', async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'sk-x', fetch: send, maxRetries: 0 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `q${i}` }] }),
      ),
    );
    expect(answers.map((a) => a.choices[0]!.message.content)).toEqual(
      Array.from({ length: 12 }, (_, i) => `answer to q${i}`),
    );
    expect(answers[0]!.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer sk-x');

    const failing = new OpenAI({
      baseURL: `${base}/v1/unavailable`,
      apiKey: 'k',
      fetch: send,
      maxRetries: 0,
    });
    const err = await failing.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'q' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toMatchObject({ status: 503, message: expect.stringContaining('overloaded') });

    const unreachable = new OpenAI({
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: 'k',
      fetch: send,
      maxRetries: 0,
    });
    await expect(
      unreachable.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('lets the SDK time a call out', async () => {
    const client = new OpenAI({
      baseURL: `${base}/slow`,
      apiKey: 'k',
      fetch: send,
      maxRetries: 0,
      timeout: 100,
    });
    await expect(
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });
});
