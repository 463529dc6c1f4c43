import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiLanguageModel } from '../../src/infrastructure/llm/openai-language-model.js';
import { TelegramMessenger } from '../../src/infrastructure/messenger/telegram-messenger.js';
import { parseModelJson } from '../../src/application/shared/llm.js';
import { OpenAiPeer } from './openai-peer.js';
import { TelegramPeer } from './telegram-peer.js';

describe('OpenAI-compatible adapter against a loopback peer', () => {
  const peer = new OpenAiPeer((call) => JSON.stringify({ echo: call.messages.at(-1)?.content }));
  beforeAll(() => peer.start());
  afterAll(() => peer.stop());

  const provider = (imageModel: string | null) => ({
    id: '00000000-0000-4000-8000-000000000001',
    name: 'peer',
    type: 'multimodal' as const,
    baseUrl: peer.baseUrl,
    model: 'test-model',
    imageModel,
    apiKey: 'sk-test',
    isActive: true,
  });

  it('completes a chat with JSON mode and the bearer key', async () => {
    const llm = new OpenAiLanguageModel(provider(null), { maxRetries: 0 });
    const out = await llm.complete({ messages: [{ role: 'user', content: 'hi' }], json: true });
    expect(parseModelJson(out.text)).toEqual({ echo: 'hi' });
    expect(out.usage).toEqual({ promptTokens: 10, completionTokens: 5 });
    expect(peer.chatCalls.at(-1)?.response_format).toEqual({ type: 'json_object' });
    expect(peer.peer.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test');
    expect(llm.generateImage).toBeUndefined();
  });

  it('generates an image when the provider has an image model', async () => {
    const llm = new OpenAiLanguageModel(provider('img-model'), { maxRetries: 0 });
    const png = await llm.generateImage!('abstract', { width: 1792, height: 1024 });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(peer.imageCalls.at(-1)).toMatchObject({ model: 'img-model', size: '1792x1024' });
  });

  it('parses fenced JSON answers', () => {
    expect(parseModelJson('Here:\n```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(() => parseModelJson('no json')).toThrow();
  });
});

describe('Telegram adapter against a loopback Bot API peer', () => {
  const tg = new TelegramPeer();
  beforeAll(() => tg.start());
  afterAll(() => tg.stop());

  it('sends a message and reports a refusal without leaking the token', async () => {
    const m = new TelegramMessenger({ botToken: '123:secret', apiUrl: tg.url });
    expect(await m.send('42', 'hello')).toBe('1');
    expect(tg.messages[0]).toMatchObject({ token: '123:secret', chat_id: '42', text: 'hello' });
    tg.refuse.add('43');
    const err = await m.send('43', 'x').catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('403');
    expect((err as Error).message).not.toContain('secret');
  });
});
