import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../../application/reports/reports.ports.js';

/** nodemailer over SMTP (`SMTP_URL`, e.g. smtp://user:pass@host:587 or smtps://...:465). */
export class SmtpMailer implements Mailer {
  readonly configured: boolean;
  private readonly transport: Transporter | null;

  constructor(opts: { smtpUrl: string | undefined; from: string; timeoutMs?: number }) {
    this.configured = Boolean(opts.smtpUrl);
    this.from = opts.from;
    const timeout = opts.timeoutMs ?? 30_000;
    this.transport = opts.smtpUrl
      ? nodemailer.createTransport({
          url: opts.smtpUrl,
          connectionTimeout: timeout,
          greetingTimeout: timeout,
          socketTimeout: timeout,
        } as Parameters<typeof nodemailer.createTransport>[0])
      : null;
  }

  private readonly from: string;

  async send(m: MailMessage): Promise<void> {
    if (!this.transport) throw new Error('mail is not configured (SMTP_URL)');
    const info = (await this.transport.sendMail({
      from: this.from,
      to: m.to,
      subject: m.subject,
      html: m.html,
      text: m.text,
    })) as { rejected?: unknown[] };
    // one recipient per message: a refused recipient is a failed delivery
    if (info.rejected?.length) throw new Error(`the SMTP server refused ${m.to}`);
  }

  close(): void {
    this.transport?.close();
  }
}
