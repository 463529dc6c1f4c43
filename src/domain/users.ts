export type Role = 'user' | 'admin';

export interface User {
  id: string;
  email: string;
  displayName: string | null;
  role: Role;
  createdAt: Date;
}

/** What a route knows about its caller once the bearer token is checked. */
export interface Principal {
  userId: string;
  role: Role;
}

export const LOCALES = ['en', 'zh-TW'] as const;
export type Locale = (typeof LOCALES)[number];
