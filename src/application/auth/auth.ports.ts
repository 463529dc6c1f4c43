import type { Locale, Principal, Role, User } from '../../domain/users.js';

export interface UserRecord extends User {
  passwordHash: string;
}

export interface UserRepository {
  findByEmail(email: string): Promise<UserRecord | null>;
  findById(id: string): Promise<User | null>;
  create(input: {
    email: string;
    passwordHash: string;
    displayName: string | null;
    role: Role;
    /** the language of the account's notifications (the one its owner signed up in) */
    locale?: Locale;
  }): Promise<User>;
  update(id: string, patch: { role?: Role; passwordHash?: string }): Promise<void>;
  /** the role and token version a token must match; null when the account is gone */
  sessionState(id: string): Promise<{ role: Role; tokenVersion: number; disabled: boolean } | null>;
  /** sign-out: tokens signed before are refused from now on */
  bumpTokenVersion(id: string): Promise<void>;
  /** the stored hash of one account (password change checks the current password) */
  passwordHashOf(id: string): Promise<string | null>;
  /** the Users page: newest first, `search` matches e-mail or name (case-insensitive) */
  list(query: { search?: string; limit: number; offset: number }): Promise<{ items: User[]; total: number }>;
  /**
   * Changes role or disabled state under a lock on the admin rows: answers 'last_admin' (and
   * changes nothing) when the change would leave no enabled admin, 'not_found' when the account
   * is gone. Disabling bumps the token version, so the account's tokens stop working at once.
   */
  changeAccess(
    id: string,
    change: { role?: Role; disabled?: boolean },
  ): Promise<'ok' | 'last_admin' | 'not_found'>;
}

/** One-time password reset links; only hashes of the tokens are stored. */
export interface PasswordResetRepository {
  create(input: {
    userId: string;
    tokenHash: string;
    origin: 'email' | 'admin';
    expiresAt: Date;
  }): Promise<void>;
  /**
   * Marks the link used and answers its user, in one statement: a link is used once, and not after
   * it expired. null for an unknown, used or expired token.
   */
  consume(tokenHash: string, now: Date): Promise<string | null>;
  /** whether the account was sent an e-mail link since `since` (one e-mail per address per window) */
  emailedSince(userId: string, since: Date): Promise<boolean>;
  /** every open link of the account stops working (the password changed) */
  revokeAll(userId: string, now: Date): Promise<void>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
}

export interface TokenService {
  sign(principal: Principal, tokenVersion: number): Promise<{ token: string; expiresIn: number }>;
  /** null for a missing, forged, malformed or expired token */
  verify(token: string): Promise<(Principal & { tokenVersion: number }) | null>;
}

/** Passwords too common to accept (a maintained list, loaded on first use). */
export interface CommonPasswords {
  has(password: string): Promise<boolean>;
}
