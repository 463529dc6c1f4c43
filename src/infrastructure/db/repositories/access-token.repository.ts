import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type {
  AccessToken,
  AccessTokenRepository,
  TokenCredential,
} from '../../../application/tokens/tokens.ports.js';
import type { TokenScope } from '../../../domain/tokens.js';
import type { Db } from '../client.js';
import { accessTokens, users } from '../schema/index.js';

type Row = typeof accessTokens.$inferSelect;

const toToken = (r: Row): AccessToken => ({
  id: r.id,
  userId: r.userId,
  name: r.name,
  scope: r.scope,
  admin: r.admin,
  tokenKey: r.tokenKey,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
});

/** PostgreSQL 23505 on the (user_id, name) constraint, also when wrapped by the driver */
function isNameTaken(e: unknown): boolean {
  const err = e as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = err.code ?? err.cause?.code;
  const constraint = err.constraint ?? err.cause?.constraint;
  return code === '23505' && (constraint === undefined || constraint === 'access_tokens_user_name_uq');
}

export class DrizzleAccessTokenRepository implements AccessTokenRepository {
  constructor(private readonly db: Db) {}

  async create(input: {
    userId: string;
    name: string;
    scope: TokenScope;
    admin: boolean;
    tokenKey: string;
    tokenHash: string;
  }) {
    try {
      const [row] = await this.db.insert(accessTokens).values(input).returning();
      return toToken(row!);
    } catch (e) {
      if (isNameTaken(e)) return 'name_taken' as const;
      throw e;
    }
  }

  async countOf(userId: string) {
    const [row] = await this.db
      .select({ n: count() })
      .from(accessTokens)
      .where(eq(accessTokens.userId, userId));
    return row?.n ?? 0;
  }

  async listOf(userId: string) {
    const rows = await this.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.userId, userId))
      .orderBy(desc(accessTokens.createdAt), accessTokens.id);
    return rows.map(toToken);
  }

  async delete(userId: string, id: string) {
    const rows = await this.db
      .delete(accessTokens)
      .where(and(eq(accessTokens.id, id), eq(accessTokens.userId, userId)))
      .returning({ id: accessTokens.id });
    return rows.length > 0;
  }

  async findByKey(tokenKey: string): Promise<TokenCredential | null> {
    const [row] = await this.db
      .select({ token: accessTokens, role: users.role, disabledAt: users.disabledAt })
      .from(accessTokens)
      .innerJoin(users, eq(users.id, accessTokens.userId))
      .where(eq(accessTokens.tokenKey, tokenKey))
      .limit(1);
    if (!row) return null;
    return {
      ...toToken(row.token),
      tokenHash: row.token.tokenHash,
      ownerRole: row.role,
      ownerDisabled: row.disabledAt !== null,
    };
  }

  async touch(id: string, now: Date, notBefore: Date) {
    await this.db
      .update(accessTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(accessTokens.id, id),
          or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, notBefore)),
        ),
      );
  }
}
