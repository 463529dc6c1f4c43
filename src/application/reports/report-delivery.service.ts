import type { Logger } from '../shared/ports.js';
import type { Messenger } from '../shared/messenger.js';
import type { Topic } from '../../domain/catalog.js';
import type { ReportLocale } from '../../domain/reports.js';
import type {
  DeliveryChannel,
  DeliveryLog,
  Mailer,
  Recipient,
  ReportRepository,
  WeeklyReport,
} from './reports.ports.js';
import { renderReportEmail, renderReportTelegram, type ReportView } from './report-message.js';
import { localized, resolveSources } from './report-sources.js';

export interface ChannelCounts {
  sent: number;
  failed: number;
  /** delivered by an earlier run: not sent again */
  already_sent: number;
  /** the channel has no server configured (SMTP_URL / TELEGRAM_BOT_TOKEN) */
  not_configured: number;
}
export type DeliveryCounts = Record<DeliveryChannel, ChannelCounts>;

const zero = (): ChannelCounts => ({ sent: 0, failed: 0, already_sent: 0, not_configured: 0 });
const CONCURRENCY = 4;

/**
 * Sends a completed report to the topic's subscribers: e-mail to those with email_enabled, a
 * Telegram message to those with messenger_enabled and a chat id. Every attempt is recorded per
 * report, user and channel; what was sent is never sent again, and one refusal stops nobody else.
 */
export class ReportDeliveryService {
  constructor(
    private readonly deps: {
      log: DeliveryLog;
      reports: ReportRepository;
      mailer: Mailer;
      messenger: Messenger;
      logger: Logger;
      siteUrl: string;
    },
  ) {}

  async deliver(report: WeeklyReport, topic: Topic): Promise<DeliveryCounts> {
    const { log, logger } = this.deps;
    const counts: DeliveryCounts = { email: zero(), messenger: zero() };
    const [recipients, done, sources] = await Promise.all([
      log.recipients(topic.id),
      log.sent(report.id),
      resolveSources(this.deps.reports, report.articleIds),
    ]);
    const views = new Map<ReportLocale, ReportView>();
    const viewFor = (locale: ReportLocale) => {
      let v = views.get(locale);
      if (!v) {
        v = {
          ...localized(report, locale),
          topicName: topic.name,
          weekStartDate: report.weekStartDate,
          coverImageUrl: report.coverImageUrl,
          method: report.method,
          sources,
          siteUrl: this.deps.siteUrl,
        };
        views.set(locale, v);
      }
      return v;
    };

    const tasks: (() => Promise<void>)[] = [];
    const plan = (r: Recipient, channel: DeliveryChannel, configured: boolean, send: () => Promise<void>) => {
      const c = counts[channel];
      if (!configured) return void c.not_configured++;
      if (done.has(`${r.userId}:${channel}`)) return void c.already_sent++;
      tasks.push(async () => {
        let error: string | undefined;
        try {
          await send();
          c.sent++;
        } catch (err) {
          c.failed++;
          error = (err as Error).message.slice(0, 500);
          logger.warn({
            event: 'report.delivery.failed',
            report_id: report.id,
            user_id: r.userId,
            channel,
            error,
          });
        }
        try {
          await log.record({ reportId: report.id, userId: r.userId, channel, ok: !error, error });
        } catch (err) {
          // the send happened (or failed) either way; the other recipients still get theirs
          logger.error({
            event: 'report.delivery.record_failed',
            report_id: report.id,
            user_id: r.userId,
            channel,
            err,
          });
        }
      });
    };
    for (const r of recipients) {
      if (r.emailEnabled)
        plan(r, 'email', this.deps.mailer.configured, () =>
          this.deps.mailer.send(renderReportEmail(viewFor(r.locale), r)),
        );
      if (r.messengerEnabled && r.messengerChatId) {
        const chatId = r.messengerChatId;
        plan(r, 'messenger', this.deps.messenger.configured, async () => {
          await this.deps.messenger.send(chatId, renderReportTelegram(viewFor(r.locale), r.locale), {
            disablePreview: true,
          });
        });
      }
    }
    await runPool(tasks, CONCURRENCY);
    for (const channel of ['email', 'messenger'] as const)
      if (counts[channel].not_configured)
        logger.warn({
          event: 'report.delivery.not_configured',
          report_id: report.id,
          channel,
          recipients: counts[channel].not_configured,
        });
    logger.info({
      event: 'report.delivery.completed',
      report_id: report.id,
      topic_id: topic.id,
      ...flat(counts),
    });
    return counts;
  }
}

const flat = (c: DeliveryCounts) => ({
  email_sent: c.email.sent,
  email_failed: c.email.failed,
  messenger_sent: c.messenger.sent,
  messenger_failed: c.messenger.failed,
});

async function runPool(tasks: (() => Promise<void>)[], size: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(size, tasks.length) }, lane));
}
