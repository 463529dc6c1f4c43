import { MessengerError, type Messenger } from '../../application/shared/messenger.js';

/** Telegram Bot API `sendMessage` over fetch (no SDK). */
export class TelegramMessenger implements Messenger {
  readonly configured: boolean;

  constructor(private readonly opts: { botToken: string | undefined; apiUrl: string; timeoutMs?: number }) {
    this.configured = Boolean(opts.botToken);
  }

  async send(
    chatId: string,
    text: string,
    o: { html?: boolean; disablePreview?: boolean } = {},
  ): Promise<string> {
    if (!this.opts.botToken)
      throw new MessengerError('Telegram is not configured (TELEGRAM_BOT_TOKEN)', false);
    let res: Response;
    try {
      res = await fetch(`${this.opts.apiUrl}/bot${this.opts.botToken}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          chat_id: chatId,
          text: text.slice(0, 4096),
          ...(o.html ? { parse_mode: 'HTML' } : {}),
          ...(o.disablePreview ? { link_preview_options: { is_disabled: true } } : {}),
        }),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
        redirect: 'error',
      });
    } catch (e) {
      throw new MessengerError(`Telegram unreachable: ${(e as Error).message}`, true);
    }
    const body = (await res.json().catch(() => null)) as {
      ok?: boolean;
      description?: string;
      result?: { message_id?: number };
    } | null;
    if (!res.ok || !body?.ok) {
      // never echo the URL: it carries the bot token
      throw new MessengerError(
        `Telegram refused the message: HTTP ${res.status} ${body?.description ?? ''}`.trim(),
        res.status === 429 || res.status >= 500,
      );
    }
    return String(body.result?.message_id ?? '');
  }
}
