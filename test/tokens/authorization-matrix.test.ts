import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeToken } from '../mcp/mcp-helpers.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const CALLERS = [
  'anonymous',
  'reader',
  'admin',
  'revoked token',
  'read token',
  'admin read token',
  'admin write token',
] as const;
type Caller = (typeof CALLERS)[number];
/** what a caller gets: the status, and the error code when refused */
type Outcome = readonly [number, string?];

const NONE = '00000000-0000-4000-8000-000000000001';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'matrix', version: '1' } },
};

const ANON: Outcome = [401, 'unauthorized'];
const REVOKED: Outcome = [401, 'invalid_token'];
const READ_ONLY: Outcome = [403, 'token_read_only'];
const SESSION: Outcome = [403, 'session_required'];
const NOT_ADMIN: Outcome = [403, 'forbidden'];

/**
 * Every route of personal access tokens, the MCP server and webhooks, called by each kind of caller:
 * nobody, a reader's and an admin's session, a revoked token, a reader's read token and an admin's
 * read and write tokens. Each cell is the exact status (and error code) the caller must get; an
 * allowed caller that reaches the route gets its own answer (a 404 for an id that does not exist, a
 * 422 for an empty body), which shows it got past every check of who it is.
 */
const ROUTES: {
  route: [Method, string];
  payload?: object;
  outcomes: Record<Caller, Outcome>;
}[] = [
  {
    route: ['GET', '/user/tokens'],
    outcomes: {
      anonymous: ANON,
      reader: [200],
      admin: [200],
      'revoked token': REVOKED,
      'read token': SESSION,
      'admin read token': SESSION,
      'admin write token': SESSION,
    },
  },
  {
    route: ['POST', '/user/tokens'],
    payload: {},
    outcomes: {
      anonymous: ANON,
      reader: [422],
      admin: [422],
      'revoked token': REVOKED,
      'read token': READ_ONLY,
      'admin read token': READ_ONLY,
      'admin write token': SESSION,
    },
  },
  {
    route: ['DELETE', `/user/tokens/${NONE}`],
    outcomes: {
      anonymous: ANON,
      reader: [404, 'token_not_found'],
      admin: [404, 'token_not_found'],
      'revoked token': REVOKED,
      'read token': READ_ONLY,
      'admin read token': READ_ONLY,
      'admin write token': SESSION,
    },
  },
  ...(['GET', 'DELETE'] as const).map((method) => ({
    route: [method, '/mcp'] as [Method, string],
    outcomes: {
      anonymous: ANON,
      reader: REVOKED,
      admin: REVOKED,
      'revoked token': REVOKED,
      'read token': [405],
      'admin read token': [405],
      'admin write token': [405],
    } satisfies Record<Caller, Outcome>,
  })),
  {
    route: ['POST', '/mcp'],
    payload: INITIALIZE,
    outcomes: {
      anonymous: ANON,
      // a session is not a personal access token: /mcp takes tokens only
      reader: REVOKED,
      admin: REVOKED,
      'revoked token': REVOKED,
      'read token': [200],
      'admin read token': [200],
      'admin write token': [200],
    },
  },
  {
    route: ['GET', '/admin/webhooks'],
    outcomes: {
      anonymous: ANON,
      reader: NOT_ADMIN,
      admin: [200],
      'revoked token': REVOKED,
      'read token': NOT_ADMIN,
      'admin read token': [200],
      'admin write token': [200],
    },
  },
  ...(
    [
      ['POST', '/admin/webhooks', 422],
      ['PATCH', `/admin/webhooks/${NONE}`, 404],
      ['DELETE', `/admin/webhooks/${NONE}`, 404],
      ['POST', `/admin/webhooks/${NONE}/deliveries/${NONE}/resend`, 404],
    ] as const
  ).map(([method, url, reached]) => ({
    route: [method, url] as [Method, string],
    payload: method === 'DELETE' ? undefined : {},
    outcomes: {
      anonymous: ANON,
      reader: NOT_ADMIN,
      admin: [reached],
      'revoked token': REVOKED,
      'read token': READ_ONLY,
      'admin read token': READ_ONLY,
      'admin write token': [reached],
    } satisfies Record<Caller, Outcome>,
  })),
  {
    route: ['GET', `/admin/webhooks/${NONE}/deliveries`],
    outcomes: {
      anonymous: ANON,
      reader: NOT_ADMIN,
      admin: [404, 'webhook_not_found'],
      'revoked token': REVOKED,
      'read token': NOT_ADMIN,
      'admin read token': [404, 'webhook_not_found'],
      'admin write token': [404, 'webhook_not_found'],
    },
  },
];

describe.each(dbKinds())('who may call the token, MCP and webhook routes (%s)', (db) => {
  let t: TestApp;
  const headers = {} as Record<Caller, Record<string, string>>;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await buildTestApp({ db });
    const reader = await t.login('user');
    const admin = await t.login('admin');
    const revoked = await makeToken(t, admin, 'write');
    await t.app.inject({ method: 'DELETE', url: `/user/tokens/${revoked.id}`, headers: admin.headers });
    Object.assign(headers, {
      anonymous: {},
      reader: reader.headers,
      admin: admin.headers,
      'revoked token': bearer(revoked.token),
      'read token': bearer((await makeToken(t, reader, 'read')).token),
      'admin read token': bearer((await makeToken(t, admin, 'read')).token),
      'admin write token': bearer((await makeToken(t, admin, 'write')).token),
    } satisfies Record<Caller, Record<string, string>>);
  });
  afterAll(() => t?.close());

  it.each(ROUTES.map((r) => [`${r.route[0]} ${r.route[1]}`, r] as const))('%s', async (_name, r) => {
    const [method, url] = r.route;
    const got: Record<string, string> = {};
    const want: Record<string, string> = {};
    for (const caller of CALLERS) {
      const res = await t.app.inject({
        method,
        url,
        headers: {
          ...headers[caller],
          ...(url === '/mcp' && { accept: 'application/json, text/event-stream' }),
        },
        ...(r.payload ? { payload: r.payload } : {}),
      });
      const [status, code] = r.outcomes[caller];
      const body = res.statusCode >= 400 && res.body ? res.json<{ error?: { code: string } }>() : {};
      got[caller] = `${res.statusCode} ${code ? (body.error?.code ?? '-') : ''}`.trim();
      want[caller] = `${status} ${code ?? ''}`.trim();
    }
    expect(got).toEqual(want);
  });
});
