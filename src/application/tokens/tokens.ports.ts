import type { Role } from '../../domain/users.js';
import type { TokenScope } from '../../domain/tokens.js';

export interface AccessToken {
  id: string;
  userId: string;
  name: string;
  scope: TokenScope;
  /** made by an admin with the admin's own session: counts as admin while the owner is one */
  admin: boolean;
  /** the public part of the token that finds its row (shown in the list to tell tokens apart) */
  tokenKey: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A token row with what authenticating it needs of its owner, read in one statement. */
export interface TokenCredential extends AccessToken {
  tokenHash: string;
  ownerRole: Role;
  ownerDisabled: boolean;
}

export interface AccessTokenRepository {
  /** 'name_taken' when the account already has a token of that name */
  create(input: {
    userId: string;
    name: string;
    scope: TokenScope;
    admin: boolean;
    tokenKey: string;
    tokenHash: string;
  }): Promise<AccessToken | 'name_taken'>;
  countOf(userId: string): Promise<number>;
  /** newest first */
  listOf(userId: string): Promise<AccessToken[]>;
  /** false when the account has no such token */
  delete(userId: string, id: string): Promise<boolean>;
  findByKey(tokenKey: string): Promise<TokenCredential | null>;
  /** sets last_used_at to `now` unless it is already at or after `notBefore` (one write a minute) */
  touch(id: string, now: Date, notBefore: Date): Promise<void>;
}
