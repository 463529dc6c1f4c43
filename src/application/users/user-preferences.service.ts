import { invalid, notFound } from '../../domain/errors.js';
import type { Locale } from '../../domain/users.js';
import type { NotificationSettings, UserPreferencesRepository } from './users.ports.js';

export interface NotificationSettingsOut {
  email_enabled: boolean;
  messenger_chat_id: string | null;
  messenger_enabled: boolean;
  locale: Locale;
  /** phone apps (the Reader API) show our summary and zh-TW translation above the article */
  reader_summary_block: boolean;
}

/** Which delivery channels the server can use (whether SMTP / a Telegram bot are configured). */
export interface DeliveryChannels {
  email: boolean;
  telegram: boolean;
}

/**
 * A Telegram chat id: a numeric id (negative for groups and channels, e.g. -1001234567890)
 * or a public @channelname of 5-32 letters, digits and underscores.
 */
export const TELEGRAM_CHAT_ID = /^(-?[1-9][0-9]{0,19}|@[A-Za-z0-9_]{5,32})$/;

const DEFAULTS: NotificationSettings = {
  emailEnabled: false,
  messengerChatId: null,
  messengerEnabled: false,
  locale: 'en',
  readerSummaryBlock: true,
};

const out = (s: NotificationSettings): NotificationSettingsOut => ({
  email_enabled: s.emailEnabled,
  messenger_chat_id: s.messengerChatId,
  messenger_enabled: s.messengerEnabled,
  locale: s.locale,
  reader_summary_block: s.readerSummaryBlock,
});

/** A user's topic subscriptions and notification settings; every call is scoped to that user. */
export class UserPreferencesService {
  constructor(
    private readonly repo: UserPreferencesRepository,
    private readonly channels: DeliveryChannels = { email: true, telegram: true },
  ) {}

  async subscriptions(userId: string) {
    const rows = await this.repo.listSubscriptions(userId);
    return {
      subscriptions: rows.map((r) => ({
        topic_id: r.topicId,
        topic_name: r.topicName,
        created_at: r.createdAt.toISOString(),
      })),
    };
  }

  async subscribe(userId: string, topicId: string) {
    if (!(await this.repo.topicExists(topicId))) throw notFound('topic', 'topic_not_found');
    const s = await this.repo.subscribe(userId, topicId);
    return { id: s.id, topic_id: s.topicId };
  }

  async unsubscribe(userId: string, topicId: string) {
    await this.repo.unsubscribe(userId, topicId);
  }

  /** whether Reader API items carry the summary block (on unless the user turned it off) */
  async readerSummaryBlock(userId: string): Promise<boolean> {
    return ((await this.repo.getSettings(userId)) ?? DEFAULTS).readerSummaryBlock;
  }

  async settings(userId: string): Promise<NotificationSettingsOut & { delivery: DeliveryChannels }> {
    return { ...out((await this.repo.getSettings(userId)) ?? DEFAULTS), delivery: { ...this.channels } };
  }

  async saveSettings(
    userId: string,
    body: Omit<NotificationSettingsOut, 'reader_summary_block'> & { reader_summary_block?: boolean },
  ): Promise<NotificationSettingsOut & { delivery: DeliveryChannels }> {
    const chatId = body.messenger_chat_id?.trim() || null;
    if (chatId && !TELEGRAM_CHAT_ID.test(chatId))
      throw invalid('the chat id is not a Telegram chat id', 'messenger_chat_id_invalid', [
        {
          path: '/messenger_chat_id',
          message:
            'a numeric chat id (negative for groups, e.g. -1001234567890) or @channelname (5-32 letters, digits, _)',
        },
      ]);
    if (body.messenger_enabled && !chatId)
      throw invalid('messenger notifications need a chat id', 'messenger_chat_id_required', [
        { path: '/messenger_chat_id', message: 'required when messenger_enabled is true' },
      ]);
    // a client that does not know the Reader setting leaves it as it was
    const readerSummaryBlock =
      body.reader_summary_block ?? ((await this.repo.getSettings(userId)) ?? DEFAULTS).readerSummaryBlock;
    const saved = await this.repo.upsertSettings(userId, {
      emailEnabled: body.email_enabled,
      messengerChatId: chatId,
      messengerEnabled: body.messenger_enabled,
      locale: body.locale,
      readerSummaryBlock,
    });
    return { ...out(saved), delivery: { ...this.channels } };
  }
}
