import { eq, sql } from 'drizzle-orm';
import type { UserRecord, UserRepository } from '../../../application/auth/auth.ports.js';
import type { Role, User } from '../../../domain/users.js';
import type { Db } from '../client.js';
import { users } from '../schema/index.js';

type Row = typeof users.$inferSelect;

const toUser = (r: Row): User => ({
  id: r.id,
  email: r.email,
  displayName: r.displayName,
  role: r.role,
  createdAt: r.createdAt,
});

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

  async create(input: { email: string; passwordHash: string; displayName: string | null; role: Role }) {
    const [row] = await this.db.insert(users).values(input).returning();
    return toUser(row!);
  }

  async update(id: string, patch: { role?: Role; passwordHash?: string }) {
    await this.db
      .update(users)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(users.id, id));
  }

  async sessionState(id: string) {
    const [row] = await this.db
      .select({ role: users.role, tokenVersion: users.tokenVersion })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return row ?? null;
  }

  async bumpTokenVersion(id: string) {
    await this.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, id));
  }
}
