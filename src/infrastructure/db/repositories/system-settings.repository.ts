import { eq } from 'drizzle-orm';
import type { Db } from '../client.js';
import { systemSettings } from '../schema/index.js';

/** Facts fixed at first start (system_settings). */
export class SystemSettings {
  constructor(private readonly db: Db) {}

  async get(key: string): Promise<string | null> {
    const [r] = await this.db.select().from(systemSettings).where(eq(systemSettings.key, key));
    return r?.value ?? null;
  }

  /** Records the value unless the key is set; returns the value that holds (first writer wins). */
  async setIfAbsent(key: string, value: string): Promise<string> {
    await this.db.insert(systemSettings).values({ key, value }).onConflictDoNothing();
    return (await this.get(key)) ?? value;
  }
}
