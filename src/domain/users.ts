import type { TokenScope } from './tokens.js';

export type Role = 'user' | 'admin';

export interface User {
  id: string;
  email: string;
  displayName: string | null;
  role: Role;
  /** set when an admin disabled the account: no sign-in, no working token */
  disabledAt: Date | null;
  createdAt: Date;
}

/** What a route knows about its caller once the bearer token is checked. */
export interface Principal {
  userId: string;
  role: Role;
  /** the CLI on this machine through the local admin channel, not a user's token */
  local?: true;
  /** set when the caller came with a personal access token rather than a session */
  token?: { id: string; scope: TokenScope };
}

/** The id the local admin channel's principal carries: no account has it. */
export const LOCAL_ADMIN_ID = '00000000-0000-0000-0000-000000000000';

export const LOCALES = ['en', 'zh-TW'] as const;
export type Locale = (typeof LOCALES)[number];
