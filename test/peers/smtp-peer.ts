import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  raw: string;
}

/** An SMTP server on loopback (smtp-server): records every message; addresses in `refuse` get 550. */
export class SmtpPeer {
  readonly messages: ReceivedMail[] = [];
  readonly refuse = new Set<string>();
  private readonly server: SMTPServer;
  url = '';

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, cb) => {
        if (this.refuse.has(address.address.toLowerCase())) {
          const err = new Error('550 5.1.1 mailbox unavailable') as Error & { responseCode: number };
          err.responseCode = 550;
          return cb(err);
        }
        cb();
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            ...parseMime(raw),
            raw,
          });
          cb();
        });
      },
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Enough MIME for assertions: the decoded subject and the text/plain and text/html bodies. */
export function parseMime(raw: string): { subject: string; html: string; text: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = unfold(head ?? '');
  const subject = decodeWords(headers.get('subject') ?? '');
  const out = { subject, html: '', text: '' };
  collect(headers, rest.join('\r\n\r\n'), out);
  return out;
}

function unfold(head: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) map.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return map;
}

function collect(headers: Map<string, string>, body: string, out: { html: string; text: string }): void {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const trimmed = part.replace(/^\r?\n/, '');
      const [h, ...b] = trimmed.split(/\r?\n\r?\n/);
      collect(unfold(h ?? ''), b.join('\r\n\r\n'), out);
    }
    return;
  }
  const enc = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const decoded =
    enc === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : enc === 'quoted-printable'
        ? decodeQp(body)
        : body;
  if (/text\/html/i.test(type)) out.html = decoded.trim();
  else if (/text\/plain/i.test(type)) out.text = decoded.trim();
}

function decodeQp(s: string): string {
  const src = s.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const hex = src.slice(i + 1, i + 3);
    if (src[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(src[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(s: string): string {
  return s
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([bq])\?([^?]*)\?=/gi, (_m, _cs: string, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQp(text.replace(/_/g, ' ')),
    );
}
