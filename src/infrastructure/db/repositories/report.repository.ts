import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type {
  ArticleSource,
  DeliveryChannel,
  DeliveryLog,
  NewWeeklyReport,
  Recipient,
  ReportRepository,
  WeeklyReport,
} from '../../../application/reports/reports.ports.js';
import { reportMethodOf } from '../../../domain/reports.js';
import type { Db } from '../client.js';
import {
  articleMetrics,
  articles,
  notificationDeliveries,
  notificationSettings,
  subscriptions,
  users,
  weeklyReports,
} from '../schema/index.js';

const reportOf = (r: typeof weeklyReports.$inferSelect): WeeklyReport => ({
  id: r.id,
  topicId: r.topicId,
  weekStartDate: r.weekStartDate,
  title: r.title,
  summaryText: r.summaryText,
  coverImageUrl: r.coverImageUrl,
  articleCount: r.articleCount,
  status: r.status,
  method: reportMethodOf(r.method),
  articleIds: Array.isArray(r.articleIds) ? r.articleIds.map(String) : [],
  translations: r.translations ?? {},
  grounding: r.grounding ?? null,
  createdAt: r.createdAt,
});

export class DrizzleReportRepository implements ReportRepository {
  constructor(private readonly db: Db) {}

  async findByWeek(topicId: string, weekStart: string) {
    const [r] = await this.db
      .select()
      .from(weeklyReports)
      .where(and(eq(weeklyReports.topicId, topicId), eq(weeklyReports.weekStartDate, weekStart)));
    return r ? reportOf(r) : null;
  }

  async saveCompleted(input: NewWeeklyReport) {
    const values = { ...input, status: 'completed', error: null, updatedAt: new Date() };
    // a completed report is never overwritten: a concurrent run that lost the race keeps the winner's
    const [r] = await this.db
      .insert(weeklyReports)
      .values(values)
      .onConflictDoUpdate({
        target: [weeklyReports.topicId, weeklyReports.weekStartDate],
        set: values,
        setWhere: sql`${weeklyReports.status} <> 'completed'`,
      })
      .returning();
    if (r) return reportOf(r);
    const existing = await this.findByWeek(input.topicId, input.weekStartDate);
    if (!existing) throw new Error('weekly report vanished while saving');
    return existing;
  }

  async list(topicId: string, page: { limit: number; offset: number }) {
    const where = eq(weeklyReports.topicId, topicId);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(weeklyReports)
        .where(where)
        .orderBy(desc(weeklyReports.weekStartDate), desc(weeklyReports.createdAt))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ n: count() }).from(weeklyReports).where(where),
    ]);
    return { items: rows.map(reportOf), total: Number(total?.n ?? 0) };
  }

  async latestCompleted(topicId: string) {
    const [r] = await this.db
      .select()
      .from(weeklyReports)
      .where(and(eq(weeklyReports.topicId, topicId), eq(weeklyReports.status, 'completed')))
      .orderBy(desc(weeklyReports.weekStartDate), desc(weeklyReports.createdAt))
      .limit(1);
    return r ? reportOf(r) : null;
  }

  async sources(ids: string[]): Promise<ArticleSource[]> {
    if (!ids.length) return [];
    // a work's coverage is written on every member as coverage_count (docs/decisions/0125-works.md)
    const rows = await this.db
      .select({ id: articles.id, title: articles.title, url: articles.url, coverage: articleMetrics.value })
      .from(articles)
      .leftJoin(
        articleMetrics,
        and(eq(articleMetrics.articleId, articles.id), eq(articleMetrics.metricKey, 'coverage_count')),
      )
      .where(inArray(articles.id, ids));
    return rows.map((r) => ({ ...r, coverage: Math.max(0, Math.round(Number(r.coverage ?? 0))) }));
  }
}

export class DrizzleDeliveryLog implements DeliveryLog {
  constructor(private readonly db: Db) {}

  async recipients(topicId: string): Promise<Recipient[]> {
    const rows = await this.db
      .select({
        userId: users.id,
        email: users.email,
        displayName: users.displayName,
        emailEnabled: notificationSettings.emailEnabled,
        messengerChatId: notificationSettings.messengerChatId,
        messengerEnabled: notificationSettings.messengerEnabled,
        locale: notificationSettings.locale,
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
      .where(eq(subscriptions.topicId, topicId))
      .orderBy(subscriptions.createdAt);
    // no settings row yet: the defaults of the settings resource
    return rows.map((r) => ({
      userId: r.userId,
      email: r.email,
      displayName: r.displayName,
      emailEnabled: r.emailEnabled ?? false,
      messengerChatId: r.messengerChatId ?? null,
      messengerEnabled: r.messengerEnabled ?? false,
      locale: r.locale === 'zh-TW' ? 'zh-TW' : 'en',
    }));
  }

  async sent(reportId: string) {
    const rows = await this.db
      .select({ userId: notificationDeliveries.userId, channel: notificationDeliveries.channel })
      .from(notificationDeliveries)
      .where(and(eq(notificationDeliveries.reportId, reportId), eq(notificationDeliveries.status, 'sent')));
    return new Set(rows.map((r) => `${r.userId}:${r.channel}`));
  }

  async record(e: {
    reportId: string;
    userId: string;
    channel: DeliveryChannel;
    ok: boolean;
    error?: string;
  }) {
    const now = new Date();
    const values = {
      status: e.ok ? ('sent' as const) : ('failed' as const),
      error: e.ok ? null : (e.error ?? 'unknown error'),
      sentAt: e.ok ? now : null,
      updatedAt: now,
    };
    await this.db
      .insert(notificationDeliveries)
      .values({ reportId: e.reportId, userId: e.userId, channel: e.channel, ...values })
      .onConflictDoUpdate({
        target: [
          notificationDeliveries.reportId,
          notificationDeliveries.userId,
          notificationDeliveries.channel,
        ],
        set: { ...values, attempts: sql`${notificationDeliveries.attempts} + 1` },
      });
  }
}
