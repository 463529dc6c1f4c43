/** Sends a text message to a chat (Telegram Bot API in production). */
export interface Messenger {
  readonly configured: boolean;
  /** resolves with the message id; rejects with a MessengerError on refusal */
  send(chatId: string, text: string, opts?: { html?: boolean; disablePreview?: boolean }): Promise<string>;
}

export class MessengerError extends Error {
  constructor(
    message: string,
    /** true when retrying later may succeed (429, 5xx, network) */
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'MessengerError';
  }
}
