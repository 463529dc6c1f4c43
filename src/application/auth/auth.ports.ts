import type { Principal, Role, User } from '../../domain/users.js';

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
  }): Promise<User>;
  update(id: string, patch: { role?: Role; passwordHash?: string }): Promise<void>;
  /** the role and token version a token must match; null when the account is gone */
  sessionState(id: string): Promise<{ role: Role; tokenVersion: number } | null>;
  /** sign-out: tokens signed before are refused from now on */
  bumpTokenVersion(id: string): Promise<void>;
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
