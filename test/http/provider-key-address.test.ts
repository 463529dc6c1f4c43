import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { OpenAiPeer } from '../peers/openai-peer.js';

/**
 * A provider's stored key belongs to the address it was entered for. Two OpenAI-compatible peers on
 * loopback (two origins: the same host, two ports) record the Authorization header they receive.
 */
describe("a provider's key does not follow its base_url to another address", () => {
  let t: TestApp;
  let admin: { authorization: string };
  let first: OpenAiPeer;
  let second: OpenAiPeer;
  const seen = new Map<OpenAiPeer, (string | undefined)[]>();

  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await t.login('admin')).headers;
    first = await new OpenAiPeer().start();
    second = await new OpenAiPeer().start();
    for (const peer of [first, second]) {
      seen.set(peer, []);
      peer.chat = (_call, req) => {
        seen.get(peer)!.push(req.headers.authorization);
        return 'ok';
      };
    }
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await t?.close();
  });

  const patch = (id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: `/admin/providers/${id}`, headers: admin, payload });
  const testCall = (id: string) =>
    t.app.inject({ method: 'POST', url: `/admin/providers/${id}/test`, headers: admin });

  it('drops the stored key when the address moves to another origin without a new key', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/providers',
      headers: admin,
      payload: { name: 'p', type: 'text', model: 'm', base_url: first.baseUrl, api_key: 'sk-for-the-first' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect((await testCall(id)).json().ok).toBe(true);
    expect(seen.get(first)).toEqual(['Bearer sk-for-the-first']);

    // another field, or the same origin with another path: the key stays
    expect((await patch(id, { name: 'renamed' })).json().has_api_key).toBe(true);
    expect((await patch(id, { base_url: `${first.baseUrl}/` })).json().has_api_key).toBe(true);

    const moved = await patch(id, { base_url: second.baseUrl });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ base_url: second.baseUrl, has_api_key: false });
    await testCall(id);
    expect(seen.get(second)).toHaveLength(1);
    expect(seen.get(second)![0] ?? '').not.toContain('sk-for-the-first');
    const listed = await t.app.inject({ method: 'GET', url: '/admin/providers', headers: admin });
    expect(listed.json().find((p: { id: string }) => p.id === id).has_api_key).toBe(false);
  });

  it('keeps a key sent with the move, and the new address gets that key', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/providers',
      headers: admin,
      payload: { name: 'q', type: 'text', model: 'm', base_url: first.baseUrl, api_key: 'sk-old-address' },
    });
    const id = created.json().id as string;
    const moved = await patch(id, { base_url: second.baseUrl, api_key: 'sk-new-address' });
    expect(moved.json().has_api_key).toBe(true);
    seen.set(second, []);
    await testCall(id);
    expect(seen.get(second)).toEqual(['Bearer sk-new-address']);
  });
});
