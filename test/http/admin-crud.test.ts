import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * The routes written through the admin CRUD helper (src/http/routes/admin-crud.ts): what they answer
 * to input the schema refuses is what the OpenAPI document says they answer.
 */
const refused: [method: 'GET' | 'PATCH' | 'PUT' | 'DELETE', url: string, docPath: string][] = [
  ['PATCH', '/admin/topics/not-a-uuid', '/admin/topics/{id}'],
  ['DELETE', '/admin/topics/not-a-uuid', '/admin/topics/{id}'],
  ['PATCH', '/admin/providers/not-a-uuid', '/admin/providers/{id}'],
  ['DELETE', '/admin/providers/not-a-uuid', '/admin/providers/{id}'],
  ['GET', '/admin/sources?topic_id=not-a-uuid', '/admin/sources'],
  ['PATCH', '/admin/sources/not-a-uuid', '/admin/sources/{id}'],
  ['DELETE', '/admin/sources/not-a-uuid', '/admin/sources/{id}'],
  ['PUT', '/tag-groups/not-a-uuid', '/tag-groups/{id}'],
  ['DELETE', '/tag-groups/not-a-uuid', '/tag-groups/{id}'],
  ['PUT', '/tags/not-a-uuid', '/tags/{id}'],
  ['DELETE', '/tags/not-a-uuid', '/tags/{id}'],
  ['GET', '/admin/users?limit=0', '/admin/users'],
  ['PATCH', '/admin/users/not-a-uuid', '/admin/users/{id}'],
  ['PATCH', '/admin/metric-definitions/not-a-uuid', '/admin/metric-definitions/{id}'],
];

describe('admin CRUD routes', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let doc: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await t.login('admin')).headers;
    doc = (await t.app.inject({ url: '/docs/json' })).json();
  });
  afterAll(() => t.close());

  it.each(refused)('%s %s answers a documented 422', async (method, url, docPath) => {
    const res = await t.app.inject({
      method,
      url,
      headers: admin,
      ...(method === 'PATCH' || method === 'PUT' ? { payload: {} } : {}),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'validation_error' });
    expect(Object.keys(doc.paths[docPath]![method.toLowerCase()]!.responses)).toContain('422');
  });

  it.each(refused)(
    '%s %s answers 401 before validating for a caller without a session',
    async (method, url) => {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(401);
    },
  );
});
