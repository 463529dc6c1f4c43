import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildWebServer } from '../../src/web/web-server.js';
import { HttpPeer } from '../peers/http-peer.js';

const TIMEOUT_MS = 800;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The web role's proxy cut every forwarded request at its timeout, an Ask answer streamed as
 * server-sent events included (a model may take a minute): an event stream is now bounded by the
 * time between two of its bytes, an ordinary answer still by the whole.
 */
describe('web role: event streams through /api/proxy', () => {
  let peer: HttpPeer;
  let web: FastifyInstance;
  let url: string;
  let dist: string;

  beforeAll(async () => {
    peer = await new HttpPeer(async (req, res) => {
      if (req.path === '/live') {
        // four events over ~2.4 s: three times the proxy's timeout in all, never that long apart
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let i = 0; i < 4; i++) {
          res.write(`event: delta\ndata: ${i}\n\n`);
          await pause(TIMEOUT_MS * 0.75);
        }
        return void res.end('event: answer\ndata: {}\n\n');
      }
      if (req.path === '/stalled') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: delta\ndata: 0\n\n');
        await pause(TIMEOUT_MS * 3);
        return void res.end('event: answer\ndata: {}\n\n');
      }
      // an ordinary answer whose body takes longer than the timeout
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
      await pause(TIMEOUT_MS * 2);
      res.end('1}');
    }).start();
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    web = await buildWebServer(pino({ level: 'silent' }), {
      apiUrl: peer.url,
      trustedProxies: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
      timeoutMs: TIMEOUT_MS,
      distDir: dist,
      secureCookie: false,
    });
    url = await web.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await web?.close();
    await peer?.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  /** the body as far as it came, and whether it ended cleanly */
  async function read(path: string): Promise<{ status: number; text: string; complete: boolean }> {
    const res = await fetch(`${url}/api/proxy${path}`, { headers: { accept: 'text/event-stream' } });
    let text = '';
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { status: res.status, text, complete: true };
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      return { status: res.status, text, complete: false };
    }
  }

  it('relays a live stream that lasts longer than the timeout, every event of it', async () => {
    const { status, text, complete } = await read('/live');
    expect(status).toBe(200);
    expect(complete).toBe(true);
    expect(text.match(/^event: /gm)).toHaveLength(5);
    expect(text).toContain('event: answer');
  });

  it('cuts a stream that stays silent for longer than the timeout', async () => {
    const { text, complete } = await read('/stalled');
    expect(text).toContain('data: 0');
    expect(text).not.toContain('event: answer');
    expect(complete).toBe(false);
  });

  it('still bounds an ordinary answer by the timeout as a whole', async () => {
    const { text, complete } = await read('/slow-json');
    expect(complete && text === '{"a":1}').toBe(false);
  });
});
