import { and, asc, eq } from 'drizzle-orm';
import type {
  NotificationSettings,
  UserPreferencesRepository,
} from '../../../application/users/users.ports.js';
import type { Db } from '../client.js';
import { notificationSettings, subscriptions, topics } from '../schema/index.js';

export class DrizzleUserPreferencesRepository implements UserPreferencesRepository {
  constructor(private readonly db: Db) {}

  async listSubscriptions(userId: string) {
    return this.db
      .select({
        id: subscriptions.id,
        topicId: subscriptions.topicId,
        topicName: topics.name,
        createdAt: subscriptions.createdAt,
      })
      .from(subscriptions)
      .innerJoin(topics, eq(topics.id, subscriptions.topicId))
      .where(eq(subscriptions.userId, userId))
      .orderBy(asc(topics.name));
  }

  async topicExists(topicId: string) {
    return (await this.db.select({ id: topics.id }).from(topics).where(eq(topics.id, topicId))).length > 0;
  }

  async subscribe(userId: string, topicId: string) {
    // the unique (user, topic) pair decides under concurrency; the existing row is answered then
    const [inserted] = await this.db
      .insert(subscriptions)
      .values({ userId, topicId })
      .onConflictDoNothing({ target: [subscriptions.userId, subscriptions.topicId] })
      .returning({ id: subscriptions.id, topicId: subscriptions.topicId });
    if (inserted) return inserted;
    const [existing] = await this.db
      .select({ id: subscriptions.id, topicId: subscriptions.topicId })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.topicId, topicId)));
    return existing!;
  }

  async unsubscribe(userId: string, topicId: string) {
    await this.db
      .delete(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.topicId, topicId)));
  }

  async getSettings(userId: string): Promise<NotificationSettings | null> {
    const [row] = await this.db
      .select()
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, userId));
    return row
      ? {
          emailEnabled: row.emailEnabled,
          messengerChatId: row.messengerChatId,
          messengerEnabled: row.messengerEnabled,
          locale: row.locale,
          readerSummaryBlock: row.readerSummaryBlock,
        }
      : null;
  }

  async upsertSettings(userId: string, s: NotificationSettings) {
    const values = { ...s, updatedAt: new Date() };
    await this.db
      .insert(notificationSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: notificationSettings.userId, set: values });
    return s;
  }
}
