import { defineMessages } from '../../lib/i18n-core';

/** Strings of the notification form (namespace `settings`): delivery channels, Telegram chat id help, the feed apps' summary block; and the access tokens card. */
const en = {
  emailUnavailable:
    'E-mail is not available: the server has no mail server configured (SMTP_URL). Ask the administrator to set one.',
  telegramUnavailable:
    'Telegram is not available: the server has no Telegram bot configured (TELEGRAM_BOT_TOKEN).',
  chatIdHelp:
    'Your numeric chat id (for example 123456789; a group or channel id starts with -100) or a public channel name such as @my_channel. To find your id, send /start to the bot, then message @userinfobot; for a channel, add the bot as an administrator and use @channelname.',
  chatIdInvalid:
    'Enter a numeric chat id (e.g. 123456789 or -1001234567890) or @channelname (5–32 letters, digits or _).',
  readerSummaryBlock: 'Show the summary above each article in feed apps',
  readerSummaryBlockHint:
    'Apps that sync through the Google Reader API (NetNewsWire, Reeder, Read You, newsboat) show the summary and the Traditional Chinese title and summary in a block at the top of each article.',
  tokensTitle: 'Access tokens',
  tokensLead:
    'A token lets a script, a feed app or an assistant (MCP) use your account without your password. A read-only token can only read; a read-and-write token can also mark articles read and add favorites.',
  tokenName: 'Token name',
  tokenNameHint: 'What it is for, e.g. "laptop script" or "my assistant".',
  tokenScope: 'Access',
  scopeRead: 'Read only',
  scopeWrite: 'Read and write',
  tokenCreate: 'Create token',
  tokenCreated: 'Your new token "{name}". Copy it now: it is shown only this once.',
  tokenCopy: 'Copy',
  tokenCopied: 'Copied.',
  tokenCopyFailed: 'Copying did not work here: select the token and copy it yourself.',
  tokenDone: 'Done',
  tokensEmpty: 'You have no tokens.',
  tokenCreatedAt: 'Created {date}',
  tokenLastUsed: 'Last used {date}',
  tokenNeverUsed: 'Never used',
  tokenAdmin: 'Admin rights',
  tokenRevoke: 'Revoke',
  tokenRevokeTitle: 'Revoke "{name}"?',
  tokenRevokeLead:
    'Apps and assistants using this token are refused from their next request. This cannot be undone.',
  tokenRevoked: 'The token "{name}" is revoked.',
};
const zhTW = {
  emailUnavailable: '無法使用電子郵件：伺服器未設定郵件伺服器（SMTP_URL）。請聯絡管理員設定。',
  telegramUnavailable: '無法使用 Telegram：伺服器未設定 Telegram 機器人（TELEGRAM_BOT_TOKEN）。',
  chatIdHelp:
    '您的數字聊天 ID（例如 123456789；群組或頻道的 ID 以 -100 開頭），或公開頻道名稱，例如 @my_channel。要查詢您的 ID，請先向機器人傳送 /start，再傳訊息給 @userinfobot；頻道請將機器人加為管理員並使用 @頻道名稱。',
  chatIdInvalid:
    '請輸入數字聊天 ID（例如 123456789 或 -1001234567890）或 @頻道名稱（5–32 個英文字母、數字或 _）。',
  readerSummaryBlock: '在閱讀器 App 的每篇文章上方顯示摘要',
  readerSummaryBlockHint:
    '透過 Google Reader API 同步的 App（NetNewsWire、Reeder、Read You、newsboat）會在每篇文章頂端以區塊顯示摘要，以及繁體中文標題與摘要。',
  tokensTitle: '存取權杖',
  tokensLead:
    '權杖讓指令碼、閱讀器 App 或 AI 助理（MCP）不需您的密碼即可使用您的帳號。唯讀權杖只能讀取；可讀寫的權杖還能將文章標為已讀及加入最愛。',
  tokenName: '權杖名稱',
  tokenNameHint: '用途，例如「筆電指令碼」或「我的助理」。',
  tokenScope: '權限',
  scopeRead: '唯讀',
  scopeWrite: '讀取與寫入',
  tokenCreate: '建立權杖',
  tokenCreated: '您的新權杖「{name}」。請立即複製：它只會顯示這一次。',
  tokenCopy: '複製',
  tokenCopied: '已複製。',
  tokenCopyFailed: '此處無法自動複製：請選取權杖後自行複製。',
  tokenDone: '完成',
  tokensEmpty: '您還沒有權杖。',
  tokenCreatedAt: '建立於 {date}',
  tokenLastUsed: '上次使用 {date}',
  tokenNeverUsed: '從未使用',
  tokenAdmin: '管理員權限',
  tokenRevoke: '撤銷',
  tokenRevokeTitle: '撤銷「{name}」？',
  tokenRevokeLead: '使用此權杖的 App 與助理將從下一個請求起被拒絕。此操作無法復原。',
  tokenRevoked: '權杖「{name}」已撤銷。',
};

export const settingsMessages = defineMessages('settings', en, zhTW);
