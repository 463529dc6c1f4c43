import type { Locale } from '../../domain/users.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const TEXT: Record<
  Locale,
  (minutes: number) => { subject: string; lead: string; action: string; ignore: string }
> = {
  en: (minutes) => ({
    subject: 'Reset your password',
    lead: `Someone (we hope you) asked to reset the password of your account. The link works once, for ${minutes} minutes.`,
    action: 'Choose a new password',
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  }),
  'zh-TW': (minutes) => ({
    subject: '重設您的密碼',
    lead: `有人（希望是您本人）要求重設您帳號的密碼。此連結只能使用一次，有效時間為 ${minutes} 分鐘。`,
    action: '設定新密碼',
    ignore: '如果這不是您提出的要求，請忽略此郵件：您的密碼不會改變。',
  }),
};

/** The "forgot password" e-mail in the language of the page it was asked from. */
export function resetMail(locale: Locale, url: string, minutes: number) {
  const t = TEXT[locale](minutes);
  return {
    subject: t.subject,
    text: `${t.lead}\n\n${t.action}: ${url}\n\n${t.ignore}\n`,
    html:
      `<p>${escapeHtml(t.lead)}</p>` +
      `<p><a href="${escapeHtml(url)}">${escapeHtml(t.action)}</a></p>` +
      `<p>${escapeHtml(t.ignore)}</p>`,
  };
}
