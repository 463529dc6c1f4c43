import { and, eq, gt, isNull } from 'drizzle-orm';
import type { PasswordResetRepository } from '../../../application/auth/auth.ports.js';
import type { Db } from '../client.js';
import { passwordResets } from '../schema/index.js';

export class DrizzlePasswordResetRepository implements PasswordResetRepository {
  constructor(private readonly db: Db) {}

  async create(input: { userId: string; tokenHash: string; origin: 'email' | 'admin'; expiresAt: Date }) {
    await this.db.insert(passwordResets).values(input);
  }

  async consume(tokenHash: string, now: Date) {
    const [row] = await this.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResets.tokenHash, tokenHash),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, now),
        ),
      )
      .returning({ userId: passwordResets.userId });
    return row?.userId ?? null;
  }

  async emailedSince(userId: string, since: Date) {
    const [row] = await this.db
      .select({ id: passwordResets.id })
      .from(passwordResets)
      .where(
        and(
          eq(passwordResets.userId, userId),
          eq(passwordResets.origin, 'email'),
          gt(passwordResets.createdAt, since),
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  async revokeAll(userId: string, now: Date) {
    await this.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  }
}
