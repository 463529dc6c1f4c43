import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, createTestDatabase } from '../helpers/db.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { DrizzleUserRepository } from '../../src/infrastructure/db/repositories/user.repository.js';
import {
  DrizzleProviderRepository,
  DrizzleSourceRepository,
  DrizzleTopicRepository,
} from '../../src/infrastructure/db/repositories/catalog.repository.js';
import { AdvisoryJobLock } from '../../src/infrastructure/db/advisory-lock.js';
import { metricDefinitions } from '../../src/infrastructure/db/schema/index.js';

describe.each(dbKinds())('repositories on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('is migrated and seeded with the citation_count and coverage_count metrics', async () => {
    const rows = await database.db.select().from(metricDefinitions).orderBy(metricDefinitions.priority);
    expect(rows.map((r) => r.metricKey)).toEqual(['citation_count', 'coverage_count']);
    // coverage_count is written by the work linker: no citation source looks it up
    expect(rows[1]!.extractionSources).toEqual([]);
    expect(rows[0]!.extractionSources.map((s) => s.provider)).toEqual([
      'semantic_scholar',
      'openalex',
      'crossref',
    ]);
  });

  it('stores users with unique e-mails', async () => {
    const users = new DrizzleUserRepository(database.db);
    const u = await users.create({
      email: 'a@example.test',
      passwordHash: 'h',
      displayName: null,
      role: 'user',
    });
    expect(await users.findByEmail('a@example.test')).toMatchObject({ id: u.id, passwordHash: 'h' });
    await expect(
      users.create({ email: 'a@example.test', passwordHash: 'h', displayName: null, role: 'user' }),
    ).rejects.toThrow();
    await users.update(u.id, { role: 'admin' });
    expect((await users.findById(u.id))?.role).toBe('admin');
  });

  it('keeps topics, sources and providers', async () => {
    const topics = new DrizzleTopicRepository(database.db);
    const sources = new DrizzleSourceRepository(database.db);
    const providers = new DrizzleProviderRepository(database.db);
    const t = await topics.create({ name: 'AI', slug: 'ai', description: null, isActive: true });
    const s = await sources.create({
      topicId: t.id,
      name: 'feed',
      kind: 'rss',
      url: 'https://f.test/rss',
      enabled: true,
    });
    await sources.update(s.id, { etag: '"v1"', lastModified: 'Tue, 01 Jan 2030 00:00:00 GMT' });
    expect(await sources.get(s.id)).toMatchObject({ etag: '"v1"', enabled: true });
    expect(await sources.list({ topicId: t.id, enabledOnly: true })).toHaveLength(1);
    await providers.create({
      name: 'p1',
      type: 'text',
      baseUrl: 'http://x',
      model: 'm',
      imageModel: null,
      apiKey: null,
      isActive: true,
    });
    const mm = await providers.create({
      name: 'p2',
      type: 'multimodal',
      baseUrl: 'http://x',
      model: 'm',
      imageModel: 'img',
      apiKey: 'k',
      isActive: true,
    });
    expect((await providers.findActive('multimodal'))?.id).toBe(mm.id);
    await providers.update(mm.id, { isActive: false });
    expect(await providers.findActive('multimodal')).toBeNull();
    expect(await topics.delete(t.id)).toBe(true);
    expect(await sources.get(s.id)).toBeNull();
  });

  it('runs a job under an advisory lock exactly once at a time', async () => {
    const lock = new AdvisoryJobLock(database);
    let inner: { ran: boolean } | undefined;
    // a second holder in the same process (PGlite has one session, where advisory locks re-enter)
    const outer = await lock.runExclusive('job:x', async () => {
      inner = await lock.runExclusive('job:x', async () => 1);
      return 42;
    });
    expect(outer).toEqual({ ran: true, value: 42 });
    expect(inner).toEqual({ ran: false });
    expect(await lock.runExclusive('job:x', async () => 7)).toEqual({ ran: true, value: 7 });
    // and a second process on PostgreSQL: another lock object over another pool connection
    if (kind === 'postgres') {
      const other = new AdvisoryJobLock(database);
      let fromOther: { ran: boolean } | undefined;
      await lock.runExclusive('job:y', async () => {
        fromOther = await other.runExclusive('job:y', async () => 1);
      });
      expect(fromOther).toEqual({ ran: false });
    }
  });
});
