import { join } from 'node:path';
import { ReportDeliveryService } from '../application/reports/report-delivery.service.js';
import { ReportsService } from '../application/reports/reports.service.js';
import { WeeklyReportService } from '../application/reports/weekly-report.service.js';
import { SvgCoverRenderer } from '../infrastructure/cover/svg-cover-renderer.js';
import {
  DrizzleDeliveryLog,
  DrizzleReportRepository,
} from '../infrastructure/db/repositories/report.repository.js';
import { DrizzleReportInputs } from '../infrastructure/db/repositories/report-inputs.repository.js';
import { SmtpMailer } from '../infrastructure/mail/smtp-mailer.js';
import { LocalMediaStorage } from '../infrastructure/storage/local-media-storage.js';
import { S3MediaStorage } from '../infrastructure/storage/s3-media-storage.js';
import { nextCronTick } from '../infrastructure/queue/cron.js';
import type { AreaWiring, WiringContext } from './context.js';
import { sendingCompletedReports } from './webhooks.js';
import type { WebhookDeliveries } from '../application/webhooks/webhook-delivery.js';

/** Weekly reports: generation job (cron, CLI and admin endpoint as runs: composition/runs.ts), delivery, public read side, media. */
export const wireReports = (
  ctx: WiringContext,
  { webhooks }: { webhooks?: WebhookDeliveries } = {},
): AreaWiring<'reports'> & { weeklyReports: WeeklyReportService } => {
  const { config, db, logger } = ctx;
  const reports = new DrizzleReportRepository(db);
  const { s3 } = config;
  const media =
    s3.endpoint && s3.bucket
      ? new S3MediaStorage({
          ...s3,
          endpoint: s3.endpoint,
          bucket: s3.bucket,
          publicBaseUrl: config.publicBaseUrl,
        })
      : new LocalMediaStorage(join(config.dataDir, 'media'), config.publicBaseUrl);
  const mailer = new SmtpMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from });
  ctx.onClose(async () => mailer.close());
  const delivery = new ReportDeliveryService({
    log: new DrizzleDeliveryLog(db),
    reports,
    mailer,
    messenger: ctx.messenger,
    logger,
    siteUrl: config.publicBaseUrl,
  });
  const weeklyReports = new WeeklyReportService({
    inputs: new DrizzleReportInputs(db),
    reports: sendingCompletedReports(reports, webhooks),
    llm: ctx.llm,
    covers: new SvgCoverRenderer(),
    media,
    delivery,
    clock: ctx.clock,
    logger,
    jobLock: ctx.jobLock,
  });
  // the schedule main.ts gives the scheduler: WEEKLY_REPORT_CRON, unless SCHEDULER_ENABLED=false
  const { weeklyReportCron: cron, schedulerEnabled } = config.jobs;
  const nextDue = () => {
    const at = schedulerEnabled ? nextCronTick(cron, ctx.clock.now()) : null;
    return at ? { cron, at } : null;
  };
  return {
    services: { reports: new ReportsService(reports, media, nextDue) },
    weeklyReports,
  };
};
