import { and, count, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { UserRecord, UserRepository } from '../../../application/auth/auth.ports.js';
import type { Locale, Role, User } from '../../../domain/users.js';
import type { Db } from '../client.js';
import { notificationSettings, users } from '../schema/index.js';

type Row = typeof users.$inferSelect;

const toUser = (r: Row): User => ({
  id: r.id,
  email: r.email,
  displayName: r.displayName,
  role: r.role,
  disabledAt: r.disabledAt,
  createdAt: r.createdAt,
});

/** `%`, `_` and `\\` match themselves in a search */
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class DrizzleUserRepository implements UserRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserRecord | null> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return row ? { ...toUser(row), passwordHash: row.passwordHash } : null;
  }

  async findById(id: string): Promise<User | null> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row ? toUser(row) : null;
  }

  async create(input: {
    email: string;
    passwordHash: string;
    displayName: string | null;
    role: Role;
    locale?: Locale;
  }) {
    const { locale, ...values } = input;
    if (!locale) {
      const [row] = await this.db.insert(users).values(values).returning();
      return toUser(row!);
    }
    // the account and its notification language together, or neither
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(users).values(values).returning();
      await tx.insert(notificationSettings).values({ userId: row!.id, locale });
      return toUser(row!);
    });
  }

  async update(id: string, patch: { role?: Role; passwordHash?: string }) {
    await this.db
      .update(users)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(users.id, id));
  }

  async sessionState(id: string) {
    const [row] = await this.db
      .select({ role: users.role, tokenVersion: users.tokenVersion, disabledAt: users.disabledAt })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return row ? { role: row.role, tokenVersion: row.tokenVersion, disabled: row.disabledAt !== null } : null;
  }

  async passwordHashOf(id: string) {
    const [row] = await this.db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return row?.hash ?? null;
  }

  async list(query: { search?: string; limit: number; offset: number }) {
    const term = query.search?.trim();
    const where = term
      ? or(ilike(users.email, likePattern(term)), ilike(users.displayName, likePattern(term)))
      : undefined;
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(desc(users.createdAt), users.id)
        .limit(query.limit)
        .offset(query.offset),
      this.db.select({ n: count() }).from(users).where(where),
    ]);
    return { items: rows.map(toUser), total: total?.n ?? 0 };
  }

  async changeAccess(id: string, change: { role?: Role; disabled?: boolean }) {
    return this.db.transaction(async (tx) => {
      // the enabled admins, locked: two admins demoting each other at once take turns, and the
      // second one sees that it would remove the last
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'admin'), isNull(users.disabledAt)))
        .for('update');
      const [target] = await tx.select().from(users).where(eq(users.id, id)).limit(1).for('update');
      if (!target) return 'not_found' as const;
      const removesAdmin =
        target.role === 'admin' &&
        target.disabledAt === null &&
        (change.role === 'user' || change.disabled === true);
      if (removesAdmin && admins.every((a) => a.id === id)) return 'last_admin' as const;
      const patch: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
      if (change.role) patch.role = change.role;
      if (change.disabled === true && target.disabledAt === null) {
        patch.disabledAt = new Date();
        patch.tokenVersion = target.tokenVersion + 1;
      }
      if (change.disabled === false) patch.disabledAt = null;
      await tx.update(users).set(patch).where(eq(users.id, id));
      return 'ok' as const;
    });
  }

  async bumpTokenVersion(id: string) {
    await this.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, id));
  }
}
