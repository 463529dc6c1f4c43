import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { HttpPeer } from '../peers/http-peer.js';

describe('POST /admin/providers/{id}/test', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let peer: OpenAiPeer;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await t.login('admin')).headers;
    peer = await new OpenAiPeer().start();
  });
  afterAll(async () => {
    await peer.stop();
    await t.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/providers',
      headers: admin,
      payload: { name: 'p', type: 'text', model: 'tiny-model', ...body },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  };
  const test = (id: string, headers = admin) =>
    t.app.inject({ method: 'POST', url: `/admin/providers/${id}/test`, headers });

  it('sends one small chat request with the stored key and answers ok, model and latency', async () => {
    peer.chatCalls = [];
    let auth: string | undefined;
    peer.chat = (_call, req) => {
      auth = req.headers.authorization;
      return 'ok';
    };
    const id = await create({ base_url: peer.baseUrl, api_key: 'sk-write-only-key' });
    const res = await test(id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ ok: true, model: 'tiny-model', latency_ms: expect.any(Number) });
    expect(body.latency_ms).toBeGreaterThanOrEqual(0);
    expect(peer.chatCalls).toHaveLength(1);
    expect(peer.chatCalls[0]!.model).toBe('tiny-model');
    expect(auth).toBe('Bearer sk-write-only-key');
    // the key is used, never shown
    expect(res.body).not.toContain('sk-write-only-key');
  });

  it('reports the provider error (HTTP 401 from the provider) as ok: false with its message', async () => {
    peer.chat = () => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const id = await create({ base_url: peer.baseUrl, api_key: 'sk-wrongkeyvalue' });
    const res = await test(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: false, model: 'tiny-model' });
    expect(res.json().error).toContain('Incorrect API key provided');
    expect(res.body).not.toContain('sk-wrongkeyvalue');
  });

  it('reports an unreachable provider and a non-JSON answer as ok: false', async () => {
    const closed = new HttpPeer((_req, res) => {
      res.end();
    });
    await closed.start();
    const url = `${closed.url}/v1`;
    await closed.stop();
    const down = await test(await create({ base_url: url }));
    expect(down.statusCode).toBe(200);
    expect(down.json().ok).toBe(false);
    expect(down.json().error).toEqual(expect.any(String));

    const html = new HttpPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>not an api</html>');
    });
    await html.start();
    try {
      const r = await test(await create({ base_url: `${html.url}/v1` }));
      expect(r.json().ok).toBe(false);
    } finally {
      await html.stop();
    }
  });

  it('answers 404 for an unknown provider, 422 for a bad id, 403 for a user', async () => {
    expect((await test('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await test('not-a-uuid')).statusCode).toBe(422);
    const user = (await t.login('user')).headers;
    const id = await create({ base_url: peer.baseUrl });
    expect((await test(id, user)).statusCode).toBe(403);
  });
});
