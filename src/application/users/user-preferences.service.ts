import { invalid, notFound } from '../../domain/errors.js';
import type { Locale } from '../../domain/users.js';
import type { NotificationSettings, UserPreferencesRepository } from './users.ports.js';

export interface NotificationSettingsOut {
  email_enabled: boolean;
  messenger_chat_id: string | null;
  messenger_enabled: boolean;
  locale: Locale;
}

const DEFAULTS: NotificationSettings = {
  emailEnabled: true,
  messengerChatId: null,
  messengerEnabled: false,
  locale: 'en',
};

const out = (s: NotificationSettings): NotificationSettingsOut => ({
  email_enabled: s.emailEnabled,
  messenger_chat_id: s.messengerChatId,
  messenger_enabled: s.messengerEnabled,
  locale: s.locale,
});

/** A user's topic subscriptions and notification settings; every call is scoped to that user. */
export class UserPreferencesService {
  constructor(private readonly repo: UserPreferencesRepository) {}

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

  async settings(userId: string): Promise<NotificationSettingsOut> {
    return out((await this.repo.getSettings(userId)) ?? DEFAULTS);
  }

  async saveSettings(userId: string, body: NotificationSettingsOut): Promise<NotificationSettingsOut> {
    const chatId = body.messenger_chat_id?.trim() || null;
    if (body.messenger_enabled && !chatId)
      throw invalid('messenger notifications need a chat id', 'messenger_chat_id_required', [
        { path: '/messenger_chat_id', message: 'required when messenger_enabled is true' },
      ]);
    return out(
      await this.repo.upsertSettings(userId, {
        emailEnabled: body.email_enabled,
        messengerChatId: chatId,
        messengerEnabled: body.messenger_enabled,
        locale: body.locale,
      }),
    );
  }
}
