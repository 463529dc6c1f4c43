import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestApp, type TestApp } from './app.js';
import type { DbKind } from './db.js';
import { weeklyJob, type JobAnswer } from './runs.js';
import { OpenAiPeer, groundingReply, type ChatCall } from '../peers/openai-peer.js';
import { TelegramPeer } from '../peers/telegram-peer.js';
import { SmtpPeer } from '../peers/smtp-peer.js';

export const REPORT_SITE = 'https://reports.example.test';

export interface ReportEnv {
  t: TestApp;
  llm: OpenAiPeer;
  telegram: TelegramPeer;
  smtp: SmtpPeer;
  admin: { headers: { authorization: string } };
  runJob(body?: Record<string, string>): Promise<JobAnswer>;
  close(): Promise<void>;
}

export const isTranslation = (call: ChatCall) => call.messages[0]!.content.startsWith('Translate');

/**
 * A model that writes a one-citation summary its source supports (the first article's title, read
 * from the prompt), checks its citations from the text it is given and writes a marker-preserving
 * translation.
 */
export const simpleModel = (call: ChatCall) => {
  if (isTranslation(call)) return JSON.stringify({ title: '每週摘要', summary_text: '本週重點 [1]。' });
  const check = groundingReply(call);
  if (check) return check;
  const first = /^\[1\] (.+)$/m.exec(call.messages.map((m) => m.content).join('\n'))?.[1] ?? 'Paper';
  return JSON.stringify({ title: 'Weekly digest', summary_text: `${first} led the week [1].` });
};

/** The app with the three outside peers of weekly reports: OpenAI-compatible, SMTP, Telegram. */
export async function startReportEnv(db: DbKind, extraEnv: Record<string, string> = {}): Promise<ReportEnv> {
  const llm = await new OpenAiPeer(simpleModel).start();
  const telegram = await new TelegramPeer().start();
  const smtp = await new SmtpPeer().start();
  const dataDir = mkdtempSync(join(tmpdir(), 'reports-'));
  const t = await buildTestApp({
    db,
    env: {
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: REPORT_SITE,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Digest <digest@example.test>',
      TELEGRAM_BOT_TOKEN: '123:test-token',
      TELEGRAM_API_URL: telegram.url,
      ...extraEnv,
    },
  });
  const admin = await t.login('admin');
  return {
    t,
    llm,
    telegram,
    smtp,
    admin,
    runJob: (body = {}) => weeklyJob(t.app, t.container.batch, admin.headers, body),
    async close() {
      await t.close();
      await Promise.all([llm.stop(), telegram.stop(), smtp.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
