import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle, makeMetricDefinition, setMetric } from '../helpers/article-factories.js';
import { metricDefinitions } from '../../src/infrastructure/db/schema/index.js';
import { CachedEnabledMetrics } from '../../src/application/articles/enabled-metrics-cache.js';
import { DrizzleEnabledMetrics } from '../../src/infrastructure/db/repositories/article.repository.js';

describe('metric catalog', () => {
  let t: TestApp;
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await t.login('admin')).headers;
  });
  afterAll(() => t.close());

  const db = () => t.container.database.db;
  const citation = async () =>
    (
      await db().select().from(metricDefinitions).where(eq(metricDefinitions.metricKey, 'citation_count'))
    )[0]!;

  it('lists enabled entries publicly in priority order, without internal fields', async () => {
    await makeMetricDefinition(db(), {
      metricKey: 'download_count',
      priority: 5,
      iconName: 'download',
    });
    await makeMetricDefinition(db(), { metricKey: 'share_count', priority: 50, enabled: false });
    const res = await t.app.inject({ url: '/metric-definitions' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, unknown>[];
    expect(body.map((d) => d.metric_key)).toEqual(['download_count', 'citation_count', 'coverage_count']);
    expect(Object.keys(body[1]!).sort()).toEqual([
      'format_hint',
      'icon_name',
      'label_i18n_key',
      'metric_key',
      'unit',
    ]);
    expect(res.body).not.toMatch(/priority|extraction|semantic_scholar/);
  });

  it('shows admins every entry once with id and enabled, and refuses others', async () => {
    const res = await t.app.inject({ url: '/admin/metric-definitions', headers: admin });
    const keys = (res.json() as { metric_key: string; enabled: boolean; id: string }[]).map(
      (d) => d.metric_key,
    );
    expect(keys).toEqual([...new Set(keys)]);
    expect(keys).toContain('share_count');
    expect(res.body).not.toMatch(/priority|extraction/);
    expect((await t.app.inject({ url: '/admin/metric-definitions' })).statusCode).toBe(401);
    const user = await t.login('user');
    expect((await t.app.inject({ url: '/admin/metric-definitions', headers: user.headers })).statusCode).toBe(
      403,
    );
    const icons = (await t.app.inject({ url: '/admin/metric-definitions/icons', headers: admin })).json()
      .icons;
    expect(icons).toHaveLength(20);
    expect(icons).toEqual(expect.arrayContaining(['quote', 'network', 'git-fork']));
  });

  it('PATCH applies only enabled and icon_name, leaves unsent fields untouched, refuses the rest', async () => {
    const c = await citation();
    const patch = (payload: object, headers = admin) =>
      t.app.inject({ method: 'PATCH', url: `/admin/metric-definitions/${c.id}`, headers, payload });
    const icon = await patch({ icon_name: 'trophy' });
    expect(icon.statusCode).toBe(200);
    expect(icon.json()).toMatchObject({ icon_name: 'trophy', enabled: true });
    expect((await patch({ icon_name: 'rocket' })).statusCode).toBe(422);
    const sneaky = await patch({ enabled: false, unit: 'hacked', priority: 0 });
    expect(sneaky.statusCode).toBe(422);
    const after = await citation();
    expect(after).toMatchObject({ unit: c.unit, priority: c.priority, enabled: true, iconName: 'trophy' });
    expect((await patch({ icon_name: null })).json().icon_name).toBeNull();
    expect((await patch({ enabled: true }, (await t.login('user')).headers)).statusCode).toBe(403);
    const missing = await t.app.inject({
      method: 'PATCH',
      url: '/admin/metric-definitions/00000000-0000-4000-8000-000000000000',
      headers: admin,
      payload: { enabled: false },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('a disabled metric disappears from article metrics, detail and sort keys; re-enabling brings it back', async () => {
    const c = await citation();
    const a = await makeArticle(db());
    await setMetric(db(), a.id, 'citation_count', 42);
    const toggle = (enabled: boolean) =>
      t.app.inject({
        method: 'PATCH',
        url: `/admin/metric-definitions/${c.id}`,
        headers: admin,
        payload: { enabled },
      });
    // the enabled keys are read (and kept) first: disabling must still show at once
    expect((await t.app.inject({ url: '/articles?sort=citation_count' })).statusCode).toBe(200);
    await toggle(false);
    expect((await t.app.inject({ url: `/articles/${a.id}` })).json().metrics).toEqual({});
    expect((await t.app.inject({ url: '/articles?sort=citation_count' })).statusCode).toBe(422);
    expect(
      (await t.app.inject({ url: '/metric-definitions' }))
        .json()
        .map((d: { metric_key: string }) => d.metric_key),
    ).not.toContain('citation_count');
    await toggle(true);
    expect((await t.app.inject({ url: `/articles/${a.id}` })).json().metrics).toEqual({ citation_count: 42 });
    expect((await t.app.inject({ url: '/articles?sort=citation_count' })).statusCode).toBe(200);
  });

  it('keeps the enabled keys for its time; a change written by another process shows after it', async () => {
    let now = 1_000_000;
    const kept = new CachedEnabledMetrics(new DrizzleEnabledMetrics(db()), 10_000, () => now);
    const c = await citation();
    expect(await kept.enabledKeys()).toContain('citation_count');
    // another process disables it in the database, past this process's catalog
    await db().update(metricDefinitions).set({ enabled: false }).where(eq(metricDefinitions.id, c.id));
    now += 9_999;
    expect(await kept.enabledKeys()).toContain('citation_count');
    now += 1;
    expect(await kept.enabledKeys()).not.toContain('citation_count');
    await db().update(metricDefinitions).set({ enabled: true }).where(eq(metricDefinitions.id, c.id));
    kept.invalidate();
    expect(await kept.enabledKeys()).toContain('citation_count');
  });
});
