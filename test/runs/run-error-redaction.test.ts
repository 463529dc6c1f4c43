import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';

const BOT_TOKEN = '123456:telegram-bot-token-of-this-test';

/** A run's error is shown by GET /admin/runs/{id}: it is redacted like a log line before it is stored. */
describe.each(dbKinds())('run errors redacted like logs (%s)', (db) => {
  let t: TestApp;
  let admin: { headers: Record<string, string> };

  beforeAll(async () => {
    t = await buildTestApp({ db, env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN } });
    admin = await t.login('admin');
  });
  afterAll(() => t.close());

  /** a real driver error: Drizzle's message quotes the statement and every bind parameter */
  async function driverError(param: string): Promise<Error> {
    try {
      await t.container.database.db.execute(sql`select ${param}::int`);
    } catch (err) {
      return err as Error;
    }
    throw new Error('the statement did not fail');
  }

  it('hides bind parameters, credentials and configured secrets in the run error and its item errors', async () => {
    const failed = await driverError('private-reader@example.org');
    expect(failed.message).toContain('params: private-reader@example.org');
    const { run_id: id } = await t.container.services.runs.start('metrics', 'admin', async (tracker) => {
      tracker.error({ message: `citation API said: ${failed.message}` });
      tracker.error({
        message: `GET https://user:hunter2-password@api.example.org failed, bot ${BOT_TOKEN}`,
      });
      throw failed;
    });
    await t.container.services.runs.idle();
    const res = await t.app.inject({ url: `/admin/runs/${id}`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json<{ status: string; error: string; errors: { message: string }[] }>();
    expect(run.status).toBe('failed');
    const shown = JSON.stringify(run);
    for (const secret of ['private-reader@example.org', 'hunter2-password', BOT_TOKEN])
      expect(shown).not.toContain(secret);
    expect(run.error).toMatch(/^Failed query: select \$1::int/);
    expect(run.error).toContain('params: [redacted]');
    expect(run.errors.map((e) => e.message).sort()).toEqual([
      'GET https://user:[redacted]@api.example.org failed, bot [redacted]',
      'citation API said: Failed query: select $1::int\nparams: [redacted]',
    ]);
  });
});
