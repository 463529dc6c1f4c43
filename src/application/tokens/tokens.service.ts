import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { conflict, forbidden, invalid, notFound } from '../../domain/errors.js';
import {
  LAST_USED_RESOLUTION_MS,
  MAX_TOKENS_PER_USER,
  TOKEN_KEY_LENGTH,
  TOKEN_PREFIX,
  TOKEN_SECRET_LENGTH,
  tokenKeyOf,
  type TokenScope,
} from '../../domain/tokens.js';
import type { Principal } from '../../domain/users.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { AccessToken, AccessTokenRepository } from './tokens.ports.js';

export interface AccessTokenOut {
  id: string;
  name: string;
  scope: TokenScope;
  admin: boolean;
  /** the token's public beginning (`ais_pat_<key>`), to tell tokens apart; never the secret */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const random62 = (n: number) => Array.from({ length: n }, () => BASE62[randomInt(62)]).join('');
const sha256 = (s: string) => createHash('sha256').update(s).digest();

const toOut = (t: AccessToken): AccessTokenOut => ({
  id: t.id,
  name: t.name,
  scope: t.scope,
  admin: t.admin,
  prefix: `${TOKEN_PREFIX}${t.tokenKey}`,
  created_at: t.createdAt.toISOString(),
  last_used_at: t.lastUsedAt?.toISOString() ?? null,
});

/**
 * Personal access tokens (Settings → Access tokens): created with a session, shown once, listed
 * without their secret, revoked at once. `authenticate` turns a token into the principal the
 * routes see; nothing about a token is cached, so a revocation or a disabled owner counts on the
 * very next request.
 */
export class AccessTokensService {
  constructor(
    private readonly tokens: AccessTokenRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async create(
    caller: Principal,
    input: { name: string; scope: TokenScope },
  ): Promise<AccessTokenOut & { token: string }> {
    this.requireSession(caller);
    const name = input.name.trim();
    if (!name)
      throw invalid('the token needs a name', 'invalid_name', [{ path: '/body/name', message: 'empty' }]);
    if ((await this.tokens.countOf(caller.userId)) >= MAX_TOKENS_PER_USER)
      throw conflict(
        `an account holds at most ${MAX_TOKENS_PER_USER} tokens; revoke one first`,
        'token_limit_reached',
      );
    const tokenKey = random62(TOKEN_KEY_LENGTH);
    const token = `${TOKEN_PREFIX}${tokenKey}_${random62(TOKEN_SECRET_LENGTH)}`;
    const created = await this.tokens.create({
      userId: caller.userId,
      name,
      scope: input.scope,
      // an admin token only from an admin's own session (requireSession above): never raised later
      admin: caller.role === 'admin',
      tokenKey,
      tokenHash: sha256(token).toString('hex'),
    });
    if (created === 'name_taken')
      throw conflict('you already have a token with this name', 'token_name_taken');
    this.log.info({
      event: 'auth.token_created',
      user_id: caller.userId,
      token_id: created.id,
      scope: created.scope,
      admin: created.admin,
    });
    return { ...toOut(created), token };
  }

  async list(caller: Principal): Promise<{ items: AccessTokenOut[] }> {
    this.requireSession(caller);
    return { items: (await this.tokens.listOf(caller.userId)).map(toOut) };
  }

  async revoke(caller: Principal, id: string): Promise<void> {
    this.requireSession(caller);
    if (!(await this.tokens.delete(caller.userId, id))) throw notFound('token', 'token_not_found');
    this.log.info({ event: 'auth.token_revoked', user_id: caller.userId, token_id: id });
  }

  /**
   * The principal of a token, or null (unknown, revoked, malformed, owner disabled or gone). The
   * token's admin flag counts only while its owner is still an admin: a demotion counts at once.
   */
  async authenticate(token: string): Promise<Principal | null> {
    const key = tokenKeyOf(token);
    if (!key) return null;
    const found = await this.tokens.findByKey(key);
    if (!found || !timingSafeEqual(sha256(token), Buffer.from(found.tokenHash, 'hex'))) return null;
    if (found.ownerDisabled) return null;
    const now = this.clock.now();
    if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS)
      // a missed stamp is no reason to refuse the request
      await this.tokens
        .touch(found.id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))
        .catch((err: unknown) => this.log.warn({ event: 'auth.token_touch_failed', err }));
    return {
      userId: found.userId,
      role: found.admin && found.ownerRole === 'admin' ? 'admin' : 'user',
      token: { id: found.id, scope: found.scope },
    };
  }

  /**
   * Tokens are made, listed and revoked with the account's own session: a leaked token cannot
   * mint others that outlive it, or raise itself to admin.
   */
  private requireSession(caller: Principal): void {
    if (caller.token)
      throw forbidden('access tokens are managed with a signed-in session, not a token', 'session_required');
  }
}
