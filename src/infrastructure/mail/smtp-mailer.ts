import type { Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../../application/reports/reports.ports.js';

/**
 * nodemailer over SMTP (`SMTP_URL`, e.g. smtp://user:pass@host:587 or smtps://...:465). The library
 * and its transport are set up by the first message, not at start (docs/decisions/0003-idle-memory.md).
 */
export class SmtpMailer implements Mailer {
  readonly configured: boolean;
  private transport: Promise<Transporter> | null = null;

  constructor(private readonly opts: { smtpUrl: string | undefined; from: string; timeoutMs?: number }) {
    this.configured = Boolean(opts.smtpUrl);
  }

  private connect(smtpUrl: string): Promise<Transporter> {
    const timeout = this.opts.timeoutMs ?? 30_000;
    return (this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      } as Parameters<typeof nodemailer.createTransport>[0]),
    ));
  }

  async send(m: MailMessage): Promise<void> {
    if (!this.opts.smtpUrl) throw new Error('mail is not configured (SMTP_URL)');
    const transport = await this.connect(this.opts.smtpUrl);
    const info = (await transport.sendMail({
      from: this.opts.from,
      to: m.to,
      subject: m.subject,
      html: m.html,
      text: m.text,
    })) as { rejected?: unknown[] };
    // one recipient per message: a refused recipient is a failed delivery
    if (info.rejected?.length) throw new Error(`the SMTP server refused ${m.to}`);
  }

  close(): void {
    void this.transport?.then((t) => t.close());
  }
}
