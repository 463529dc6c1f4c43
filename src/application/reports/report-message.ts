import { weekLabel, type ReportLocale, type ReportMethod } from '../../domain/reports.js';
import type { ArticleSource, MailMessage, ReportTranslation } from './reports.ports.js';

/** What one notification shows: the report in the recipient's language. */
export interface ReportView extends ReportTranslation {
  topicName: string;
  weekStartDate: string;
  coverImageUrl: string | null;
  /** an extractive report says so: its sentences are quoted, not written */
  method?: ReportMethod;
  sources: ArticleSource[];
  /** site root: the call to action links there */
  siteUrl: string;
}

const STRINGS: Record<
  ReportLocale,
  {
    subject: string;
    greeting: (name: string | null) => string;
    cta: string;
    sources: string;
    /** after a source whose work other articles cover */
    coveredBy: (n: number) => string;
    intro: string;
    extractive: string;
  }
> = {
  en: {
    subject: 'Weekly report',
    greeting: (name) => (name ? `Hi ${name},` : 'Hi,'),
    intro: 'here is this week’s report for the topic you follow.',
    cta: 'View Full Report',
    sources: 'Sources',
    coveredBy: (n) => `covered by ${n}`,
    extractive: 'Written without a language model: each sentence is quoted from the article it cites.',
  },
  'zh-TW': {
    subject: '每週報告',
    greeting: (name) => (name ? `${name} 您好，` : '您好，'),
    intro: '以下是您訂閱主題的本週報告。',
    cta: '查看完整報告',
    sources: '參考來源',
    coveredBy: (n) => `${n} 篇報導`,
    extractive: '本報告未使用語言模型撰寫：每一句皆摘自其所引用的文章。',
  },
};

/** " · covered by N" after a source whose work other articles cover, else nothing */
const coverageNote = (s: ArticleSource, t: (typeof STRINGS)[ReportLocale]) =>
  s.coverage ? ` · ${t.coveredBy(s.coverage)}` : '';

const esc = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
/** only web links become anchors: a feed may carry any scheme */
const webUrl = (u: string) => /^https?:\/\//i.test(u);

/** A small, safe Markdown subset for mail: paragraphs, bullet lists, **bold**, *italic*, [N]. */
function markdownToHtml(md: string, sources: ArticleSource[]): string {
  const inline = (s: string) =>
    esc(s)
      .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
      .replace(/(^|[^*])\*([^*\s][^*]*?)\*/g, '$1<em>$2</em>')
      .replace(/\[(\d+)\]/g, (all, n: string) => {
        const src = sources[Number(n) - 1];
        return src && webUrl(src.url)
          ? `<a href="${esc(src.url)}" style="color:#1d4ed8;text-decoration:none;">[${n}]</a>`
          : all;
      });
  const p = 'margin:0 0 12px 0;font-size:15px;line-height:1.6;color:#1f2937;';
  return md
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => /^\s*[-*]\s+/.test(l)))
        return `<ul style="margin:0 0 12px 20px;padding:0;">${lines
          .map((l) => `<li style="${p}margin-bottom:4px;">${inline(l.replace(/^\s*[-*]\s+/, ''))}</li>`)
          .join('')}</ul>`;
      const heading = /^#{1,6}\s+(.*)$/.exec(block);
      if (heading && lines.length === 1)
        return `<p style="${p}font-weight:bold;font-size:16px;">${inline(heading[1]!)}</p>`;
      return `<p style="${p}">${lines.map(inline).join('<br>')}</p>`;
    })
    .join('');
}

/** Markdown to plain text for mail and Telegram: [N] stays as written. */
export function markdownToText(md: string): string {
  return md
    .replace(/\r\n/g, '\n')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/^\s*[-*]\s+/gm, '• ')
    .trim();
}

export function reportSubject(view: ReportView, locale: ReportLocale): string {
  const colon = locale === 'zh-TW' ? '：' : ': ';
  return `${STRINGS[locale].subject}${colon}${view.topicName} — ${view.title}`;
}

/**
 * The weekly report e-mail. Table layout with inline styles only, as mail clients (Outlook, Gmail)
 * ignore <style> blocks and flex; the cover is the header background (`background` attribute for
 * clients that ignore CSS backgrounds) under a semi-transparent white box with title and summary.
 */
export function renderReportEmail(
  view: ReportView,
  recipient: { email: string; displayName: string | null; locale: ReportLocale },
): MailMessage {
  const t = STRINGS[recipient.locale];
  const label = weekLabel(view.weekStartDate, recipient.locale);
  const cover = view.coverImageUrl;
  const headerCell = cover
    ? `<td class="report-header" background="${esc(cover)}" bgcolor="#1e3a8a" height="360" valign="middle" style="height:264px;background-color:#1e3a8a;background-image:url('${esc(cover)}');background-size:cover;background-position:center;background-repeat:no-repeat;padding:48px 32px;">`
    : `<td class="report-header" bgcolor="#1e3a8a" valign="middle" style="background-color:#1e3a8a;padding:48px 32px;">`;
  const sourcesHtml = view.sources.length
    ? `<p style="margin:24px 0 8px 0;font-size:13px;font-weight:bold;color:#374151;text-transform:uppercase;letter-spacing:0.5px;">${esc(t.sources)}</p>` +
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">${view.sources
        .map(
          (s, i) =>
            `<tr><td valign="top" style="padding:2px 8px 6px 0;font-size:13px;color:#6b7280;width:28px;">[${i + 1}]</td><td style="padding:2px 0 6px 0;font-size:13px;line-height:1.5;">${webUrl(s.url) ? `<a href="${esc(s.url)}" style="color:#1d4ed8;text-decoration:none;">${esc(s.title)}</a>` : esc(s.title)}${s.coverage ? ` <span class="source-coverage" style="color:#6b7280;">· ${esc(t.coveredBy(s.coverage))}</span>` : ''}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const html = `<!DOCTYPE html>
<html lang="${recipient.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(view.title)}</title></head>
<body style="margin:0;padding:0;background-color:#f3f4f6;font-family:Helvetica,Arial,'Noto Sans TC',sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f3f4f6" style="background-color:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" class="report-card" width="640" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:640px;background-color:#ffffff;border-radius:8px;overflow:hidden;">
<tr><td style="padding:20px 32px 0 32px;font-size:15px;line-height:1.6;color:#1f2937;">${esc(t.greeting(recipient.displayName))}<br>${esc(t.intro)}</td></tr>
<tr><td style="padding:16px 0 0 0;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"><tr>${headerCell}
<table role="presentation" class="report-box" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff" style="background-color:#ffffff;background-color:rgba(255,255,255,0.88);border-radius:8px;"><tr><td style="padding:24px 28px;">
<p style="margin:0 0 4px 0;font-size:12px;color:#4b5563;text-transform:uppercase;letter-spacing:0.5px;">${esc(view.topicName)} · ${esc(label)}</p>
<h1 class="report-title" style="margin:0 0 16px 0;font-size:24px;line-height:1.3;color:#111827;">${esc(view.title)}</h1>
<div class="report-summary">${markdownToHtml(view.summary_text, view.sources)}</div>${view.method === 'extractive' ? `\n<p class="report-method" style="margin:8px 0 0 0;font-size:12px;color:#4b5563;">${esc(t.extractive)}</p>` : ''}
</td></tr></table>
</td></tr></table></td></tr>
<tr><td style="padding:8px 32px 0 32px;">${sourcesHtml}</td></tr>
<tr><td align="center" style="padding:24px 32px 32px 32px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td align="center" bgcolor="#1d4ed8" style="border-radius:6px;background-color:#1d4ed8;">
<a class="report-cta" href="${esc(view.siteUrl)}" target="_blank" style="display:inline-block;padding:12px 28px;font-size:16px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">${esc(t.cta)}</a>
</td></tr></table>
</td></tr>
</table>
</td></tr></table>
</body></html>`;
  const text = [
    t.greeting(recipient.displayName),
    t.intro,
    '',
    `${view.topicName} · ${label}`,
    view.title,
    '',
    markdownToText(view.summary_text),
    ...(view.method === 'extractive' ? ['', t.extractive] : []),
    ...(view.sources.length
      ? [
          '',
          `${t.sources}:`,
          ...view.sources.map((s, i) => `[${i + 1}] ${s.title}${coverageNote(s, t)} — ${s.url}`),
        ]
      : []),
    '',
    `${t.cta}: ${view.siteUrl}`,
  ].join('\n');
  return { to: recipient.email, subject: reportSubject(view, recipient.locale), html, text };
}

const TELEGRAM_LIMIT = 4096;

/** The Telegram message: plain text (no parse mode, so nothing in the summary needs escaping). */
export function renderReportTelegram(view: ReportView, locale: ReportLocale): string {
  const t = STRINGS[locale];
  const head = `${t.subject}: ${view.topicName} · ${weekLabel(view.weekStartDate, locale)}\n\n${view.title}\n\n`;
  const sources = view.sources.length
    ? `\n\n${t.sources}:\n${view.sources.map((s, i) => `[${i + 1}] ${s.title}${coverageNote(s, t)}\n${s.url}`).join('\n')}`
    : '';
  const tail = `\n\n${t.cta}: ${view.siteUrl}`;
  let body = markdownToText(view.summary_text) + (view.method === 'extractive' ? `\n\n${t.extractive}` : '');
  const room = TELEGRAM_LIMIT - head.length - tail.length;
  if (body.length + sources.length <= room) return head + body + sources + tail;
  // when space is short the source list is left out and the summary keeps what fits
  if (body.length > room) body = `${body.slice(0, Math.max(0, room - 1))}…`;
  return head + body + tail;
}
