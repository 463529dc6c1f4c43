/** Strings of account management (issue 25): navigation, password reset pages, error codes. */
export const accountsEn = {
  'nav.admin.users': 'Users',
  'auth.forgot.link': 'Forgot your password?',
  'auth.forgot.askAdmin': 'Forgot your password? An administrator can reset it for you.',
  'auth.forgot.title': 'Reset your password',
  'auth.forgot.lead':
    'Enter the e-mail address of your account. We send a link to choose a new password; it works once, for one hour.',
  'auth.forgot.submit': 'Send the link',
  'auth.forgot.sent':
    'If an account uses this address, a link is on its way. Check your inbox (and the spam folder) in a minute.',
  'auth.forgot.back': 'Back to sign in',
  'auth.reset.title': 'Choose a new password',
  'auth.reset.newPassword': 'New password',
  'auth.reset.confirm': 'New password again',
  'auth.reset.submit': 'Set the password and sign in',
  'auth.reset.noToken':
    'This page needs the link from the e-mail or from your administrator. Open that link again.',
  'auth.reset.mismatch': 'The two passwords are not the same.',
  'auth.reset.done': 'Your password is set. Every other session was signed out.',
  'auth.passwordHint': 'At least 10 characters; not a common password.',
  'errors.weak_password':
    'Choose a stronger password: at least 10 characters, not only spaces, not a common one.',
  'errors.wrong_password': 'The current password is not right.',
  'errors.account_disabled': 'This account is disabled. Ask an administrator.',
  'errors.last_admin': 'This is the last admin. Make another account an admin first.',
  'errors.reset_link_invalid':
    'This link no longer works: it was used, it expired, or a newer one replaced it. Ask for a new one.',
  'errors.mail_not_configured': 'This site cannot send e-mail. Ask an administrator to reset your password.',
} as const;

export const accountsZhTW: Record<keyof typeof accountsEn, string> = {
  'nav.admin.users': '使用者',
  'auth.forgot.link': '忘記密碼？',
  'auth.forgot.askAdmin': '忘記密碼？管理員可以為您重設。',
  'auth.forgot.title': '重設密碼',
  'auth.forgot.lead':
    '請輸入您帳號的電子郵件地址。我們會寄出設定新密碼的連結；連結只能使用一次，有效時間為一小時。',
  'auth.forgot.submit': '寄出連結',
  'auth.forgot.sent': '如果有帳號使用這個地址，連結已寄出。請稍候一分鐘後查看收件匣（以及垃圾郵件資料夾）。',
  'auth.forgot.back': '返回登入',
  'auth.reset.title': '設定新密碼',
  'auth.reset.newPassword': '新密碼',
  'auth.reset.confirm': '再次輸入新密碼',
  'auth.reset.submit': '設定密碼並登入',
  'auth.reset.noToken': '此頁面需要電子郵件或管理員提供的連結。請重新開啟該連結。',
  'auth.reset.mismatch': '兩次輸入的密碼不一致。',
  'auth.reset.done': '您的密碼已設定。其他所有工作階段都已登出。',
  'auth.passwordHint': '至少 10 個字元，且不能是常見密碼。',
  'errors.weak_password': '請選擇更安全的密碼：至少 10 個字元、不能只有空白，也不能是常見密碼。',
  'errors.wrong_password': '目前的密碼不正確。',
  'errors.account_disabled': '此帳號已停用。請聯絡管理員。',
  'errors.last_admin': '這是最後一位管理員。請先將另一個帳號設為管理員。',
  'errors.reset_link_invalid': '此連結已失效：可能已使用過、已過期，或已被較新的連結取代。請重新申請。',
  'errors.mail_not_configured': '本網站無法寄送電子郵件。請聯絡管理員重設您的密碼。',
};
