import { useI18n } from '../../lib/i18n';

/** Strings of the notification form (issue 18: delivery channels, Telegram chat id help). */
const en = {
  emailUnavailable:
    'E-mail is not available: the server has no mail server configured (SMTP_URL). Ask the administrator to set one.',
  telegramUnavailable:
    'Telegram is not available: the server has no Telegram bot configured (TELEGRAM_BOT_TOKEN).',
  chatIdHelp:
    'Your numeric chat id (for example 123456789; a group or channel id starts with -100) or a public channel name such as @my_channel. To find your id, send /start to the bot, then message @userinfobot; for a channel, add the bot as an administrator and use @channelname.',
  chatIdInvalid:
    'Enter a numeric chat id (e.g. 123456789 or -1001234567890) or @channelname (5–32 letters, digits or _).',
};
const zhTW: typeof en = {
  emailUnavailable: '無法使用電子郵件：伺服器未設定郵件伺服器（SMTP_URL）。請聯絡管理員設定。',
  telegramUnavailable: '無法使用 Telegram：伺服器未設定 Telegram 機器人（TELEGRAM_BOT_TOKEN）。',
  chatIdHelp:
    '您的數字聊天 ID（例如 123456789；群組或頻道的 ID 以 -100 開頭），或公開頻道名稱，例如 @my_channel。要查詢您的 ID，請先向機器人傳送 /start，再傳訊息給 @userinfobot；頻道請將機器人加為管理員並使用 @頻道名稱。',
  chatIdInvalid:
    '請輸入數字聊天 ID（例如 123456789 或 -1001234567890）或 @頻道名稱（5–32 個英文字母、數字或 _）。',
};

export type SettingsText = typeof en;
export function useSettingsText(): SettingsText {
  return useI18n().locale === 'zh-TW' ? zhTW : en;
}
