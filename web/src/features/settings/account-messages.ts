import { defineMessages } from '../../lib/i18n-core';

/** Strings of the Settings page's account card (namespace `account`): password and sessions. */
const en = {
  title: 'Account',
  signedInAs: 'Signed in as {email}.',
  changePassword: 'Change password',
  current: 'Current password',
  next: 'New password',
  confirm: 'New password again',
  hint: 'At least 10 characters; not a common password.',
  signOutOthers: 'Also sign out my other sessions (other browsers and devices)',
  submit: 'Change password',
  mismatch: 'The two new passwords are not the same.',
  changed: 'Your password is changed.',
  changedOthersOut: 'Your password is changed, and your other sessions are signed out.',
  sessions: 'Sessions',
  sessionsLead: 'Signed in on a shared or lost device? Sign out everywhere except here.',
  signOutOthersButton: 'Sign out other sessions',
  othersOut: 'Every other session is signed out.',
  resetDone: 'Your new password is set. Every other session was signed out.',
};
const zhTW = {
  title: '帳號',
  signedInAs: '目前登入的帳號：{email}。',
  changePassword: '變更密碼',
  current: '目前的密碼',
  next: '新密碼',
  confirm: '再次輸入新密碼',
  hint: '至少 10 個字元，且不能是常見密碼。',
  signOutOthers: '同時登出我的其他工作階段（其他瀏覽器與裝置）',
  submit: '變更密碼',
  mismatch: '兩次輸入的新密碼不一致。',
  changed: '您的密碼已變更。',
  changedOthersOut: '您的密碼已變更，其他工作階段也已登出。',
  sessions: '工作階段',
  sessionsLead: '曾在共用或遺失的裝置上登入？登出除了這裡以外的所有地方。',
  signOutOthersButton: '登出其他工作階段',
  othersOut: '其他所有工作階段都已登出。',
  resetDone: '您的新密碼已設定。其他所有工作階段都已登出。',
};

export const accountMessages = defineMessages('account', en, zhTW);
