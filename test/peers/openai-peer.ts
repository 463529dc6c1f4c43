import { HttpPeer, sendJson, type RecordedRequest } from './http-peer.js';

export interface ChatCall {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
}

/** What the fake model answers: a string (the message content) or an HTTP error. */
export type ChatReply = string | { status: number; body?: unknown };

/**
 * An OpenAI-compatible server on loopback: /v1/chat/completions and /v1/images/generations.
 * Tests pass the answer for each call; every call is recorded.
 */
export class OpenAiPeer {
  readonly peer: HttpPeer;
  chatCalls: ChatCall[] = [];
  imageCalls: { model: string; prompt: string; size?: string }[] = [];

  constructor(
    public chat: (call: ChatCall, req: RecordedRequest) => ChatReply | Promise<ChatReply> = () => 'ok',
    public image: () => Buffer | { status: number } = () => TINY_PNG,
  ) {
    this.peer = new HttpPeer(async (req, res) => {
      if (req.method === 'POST' && req.path.endsWith('/chat/completions')) {
        const call = req.json() as ChatCall;
        this.chatCalls.push(call);
        const reply = await this.chat(call, req);
        if (typeof reply !== 'string')
          return sendJson(res, reply.status, reply.body ?? { error: { message: 'fail' } });
        return sendJson(res, 200, {
          id: `chatcmpl-${this.chatCalls.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: call.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        });
      }
      if (req.method === 'POST' && req.path.endsWith('/images/generations')) {
        const call = req.json() as { model: string; prompt: string; size?: string };
        this.imageCalls.push(call);
        const out = this.image();
        if (!Buffer.isBuffer(out)) return sendJson(res, out.status, { error: { message: 'image failed' } });
        return sendJson(res, 200, { created: 1, data: [{ b64_json: out.toString('base64') }] });
      }
      sendJson(res, 404, { error: { message: `no route ${req.method} ${req.path}` } });
    });
  }

  get baseUrl(): string {
    return `${this.peer.url}/v1`;
  }

  async start(): Promise<this> {
    await this.peer.start();
    return this;
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }
}

/** A valid 16x9 PNG (solid colour), as an image model would return. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAEklEQVR4nGNgoD1gHNUwqoEaAAAi5wAJ0A7xWQAAAABJRU5ErkJggg==',
  'base64',
);
