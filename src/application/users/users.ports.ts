import type { Locale } from '../../domain/users.js';

export interface SubscriptionRow {
  id: string;
  topicId: string;
  topicName: string;
  createdAt: Date;
}

export interface NotificationSettings {
  emailEnabled: boolean;
  messengerChatId: string | null;
  messengerEnabled: boolean;
  locale: Locale;
  /** Reader API items (phone apps) carry the summary and translation block above the article */
  readerSummaryBlock: boolean;
}

export interface UserPreferencesRepository {
  listSubscriptions(userId: string): Promise<SubscriptionRow[]>;
  topicExists(topicId: string): Promise<boolean>;
  /** inserts, or returns the existing subscription of the pair */
  subscribe(userId: string, topicId: string): Promise<{ id: string; topicId: string }>;
  unsubscribe(userId: string, topicId: string): Promise<void>;
  getSettings(userId: string): Promise<NotificationSettings | null>;
  upsertSettings(userId: string, settings: NotificationSettings): Promise<NotificationSettings>;
}
