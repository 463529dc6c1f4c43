import { HttpPeer, sendJson } from './http-peer.js';

/** A Telegram Bot API peer on loopback: records sendMessage calls; chats in `refuse` get 403. */
export class TelegramPeer {
  readonly peer: HttpPeer;
  readonly messages: { token: string; chat_id: string; text: string; parse_mode?: string }[] = [];
  readonly refuse = new Set<string>();

  constructor() {
    this.peer = new HttpPeer((req, res) => {
      const m = /^\/bot([^/]+)\/sendMessage$/.exec(req.path);
      if (req.method !== 'POST' || !m) return sendJson(res, 404, { ok: false, description: 'Not Found' });
      const body = req.json() as { chat_id: string | number; text: string; parse_mode?: string };
      const chatId = String(body.chat_id);
      if (this.refuse.has(chatId))
        return sendJson(res, 403, { ok: false, description: 'Forbidden: bot was blocked by the user' });
      this.messages.push({ token: m[1]!, chat_id: chatId, text: body.text, parse_mode: body.parse_mode });
      sendJson(res, 200, {
        ok: true,
        result: { message_id: this.messages.length, chat: { id: chatId }, text: body.text },
      });
    });
  }

  get url(): string {
    return this.peer.url;
  }

  async start(): Promise<this> {
    await this.peer.start();
    return this;
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }
}
