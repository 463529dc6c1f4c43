import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildWebServer } from '../../src/web/web-server.js';
import { spaIsStale } from '../../src/web/spa-build.js';
import { HttpPeer } from '../peers/http-peer.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const logger = pino({ level: 'silent' });
const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

function tempDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('web role: /api/proxy hygiene (against a recording peer)', () => {
  let peer: HttpPeer;
  let web: FastifyInstance;
  let dist: string;

  beforeAll(async () => {
    peer = await new HttpPeer((req, res) => {
      if (req.path === '/docs') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>API</title>');
        return;
      }
      res.writeHead(req.path === '/teapot' ? 418 : 200, {
        'content-type': 'application/json',
        'set-cookie': 'upstream=1',
        'x-upstream': 'yes',
      });
      res.end(JSON.stringify({ path: req.path }));
    }).start();
    dist = tempDist();
    web = await buildWebServer(logger, {
      apiUrl: peer.url,
      trustedProxies: LOOPBACK,
      timeoutMs: 5000,
      distDir: dist,
      secureCookie: false,
    });
  });
  afterAll(async () => {
    await web.close();
    await peer.stop();
    rmSync(dist, { recursive: true, force: true });
  });

  const last = () => peer.requests.at(-1)!;
  /** inject() parses the URL the WHATWG way (dot segments removed); a real socket sends it verbatim */
  const rawGet = async (path: string) => {
    webUrl ||= await web.listen({ port: 0, host: '127.0.0.1' });
    const base = webUrl;
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/`, { path, method: 'GET' }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  };
  let webUrl = '';

  it('turns the session cookie into a bearer token and never forwards it as a cookie', async () => {
    const res = await web.inject({
      method: 'GET',
      url: '/api/proxy/articles?sort=title&order=asc',
      headers: { cookie: 'theme=dark; ai_session=tok123; other=x', authorization: 'Bearer forged' },
    });
    expect(res.statusCode).toBe(200);
    expect(last().path).toBe('/articles');
    expect(last().query.get('sort')).toBe('title');
    expect(last().headers.authorization).toBe('Bearer tok123');
    expect(last().headers.cookie).toBeUndefined();
  });

  it('sends no Authorization at all without a session, even when the page supplies one', async () => {
    await web.inject({
      method: 'GET',
      url: '/api/proxy/topics',
      headers: { authorization: 'Bearer forged' },
    });
    expect(last().headers.authorization).toBeUndefined();
    expect(last().headers.cookie).toBeUndefined();
  });

  it('carries a personal access token when no session comes, and the session over it when both do', async () => {
    await web.inject({
      method: 'GET',
      url: '/api/proxy/topics',
      headers: { authorization: 'Bearer ais_pat_abc_def' },
    });
    expect(last().headers.authorization).toBe('Bearer ais_pat_abc_def');
    await web.inject({
      method: 'GET',
      url: '/api/proxy/topics',
      headers: { cookie: 'ai_session=tok123', authorization: 'Bearer ais_pat_abc_def' },
    });
    expect(last().headers.authorization).toBe('Bearer tok123');
  });

  it("sets X-Forwarded-For to the browser's address, ignoring what an untrusted client claims", async () => {
    await web.inject({
      method: 'GET',
      url: '/api/proxy/topics',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '1.2.3.4' },
    });
    expect(last().headers['x-forwarded-for']).toBe('203.0.113.7');
  });

  it('collapses duplicate slashes and keeps the query verbatim', async () => {
    const res = await web.inject({ method: 'GET', url: '/api/proxy//articles///abc//?q=a%20b&tag=x' });
    expect(res.statusCode).toBe(200);
    expect(last().path).toBe('/articles/abc');
    expect(last().query.get('q')).toBe('a b');
  });

  it.each([
    '/api/proxy/a/../admin/topics',
    '/api/proxy/a/%2e%2e/admin',
    '/api/proxy/%2E%2E%2Fadmin',
    '/api/proxy/a/./b',
  ])('refuses %s with 400 before reaching the backend', async (url) => {
    const before = peer.requests.length;
    const res = await rawGet(url);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).error.code).toBe('bad_path');
    expect(peer.requests.length).toBe(before);
  });

  it('refuses malformed percent-encoding with 400', async () => {
    const before = peer.requests.length;
    expect((await rawGet('/api/proxy/%zz')).status).toBe(400);
    expect(peer.requests.length).toBe(before);
  });

  it('decodes exactly once: a double-encoded dot segment stays literal', async () => {
    await web.inject({ method: 'GET', url: '/api/proxy/articles/%252e%252e' });
    expect(last().path).toBe('/articles/%252e%252e');
  });

  it('forwards the body and relays status and headers, but never an upstream cookie', async () => {
    const res = await web.inject({
      method: 'POST',
      url: '/api/proxy/teapot',
      headers: { 'content-type': 'application/json' },
      payload: { a: 1 },
    });
    expect(res.statusCode).toBe(418);
    expect(res.headers['x-upstream']).toBe('yes');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(last().json()).toEqual({ a: 1 });
    expect(last().headers['content-type']).toBe('application/json');
  });

  it('refuses a state-changing call from another origin', async () => {
    const before = peer.requests.length;
    const res = await web.inject({
      method: 'POST',
      url: '/api/proxy/user/favorites/x',
      headers: { origin: 'https://evil.example', host: 'localhost:3000', cookie: 'ai_session=t' },
    });
    expect(res.statusCode).toBe(403);
    expect(peer.requests.length).toBe(before);
  });

  it('forwards /media to the backend', async () => {
    const res = await web.inject({ method: 'GET', url: '/media/covers/a.png' });
    expect(res.statusCode).toBe(200);
    expect(last().path).toBe('/media/covers/a.png');
  });

  it('forwards the Atom feeds to the backend with their query', async () => {
    const res = await web.inject({ method: 'GET', url: '/feeds/topics/t1.atom?sort=title&order=asc' });
    expect(res.statusCode).toBe(200);
    expect(last().path).toBe('/feeds/topics/t1.atom');
    expect(last().query.toString()).toBe('sort=title&order=asc');
    await web.inject({ method: 'GET', url: '/feeds/reports/t1.atom' });
    expect(last().path).toBe('/feeds/reports/t1.atom');
  });

  it('serves the app at / and /index.html and every client route, with the CSP header', async () => {
    for (const url of ['/', '/index.html', '/admin/monitoring', '/reports/x?y=1']) {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.body, url).toContain('<div id="root">');
    }
    expect((await web.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
  });

  it('answers /favicon.ico with the site icon', async () => {
    const res = await web.inject({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toContain('<svg');
  });

  it('puts a CSP on HTML pages of the backend (the OpenAPI UI at /api/proxy/docs)', async () => {
    const res = await web.inject({ method: 'GET', url: '/api/proxy/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('answers its own errors with the documented error body', async () => {
    const shape = (res: { statusCode: number; json(): unknown }, status: number, code: string) => {
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({
        error: { code, message: expect.any(String), correlation_id: expect.any(String) },
      });
    };
    shape(
      await web.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      400,
      'bad_request',
    );
    shape(
      await web.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'x'.repeat(2 * 1024 * 1024) }),
      }),
      413,
      'payload_too_large',
    );
    const bad = await rawGet('/%E0%A4%A');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('answers client routes with index.html and unknown files or API paths with 404', async () => {
    const page = await web.inject({ method: 'GET', url: '/articles/123?sort=title' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<div id="root">');
    expect((await web.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
    expect((await web.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await web.inject({ method: 'GET', url: '/api/unknown' })).statusCode).toBe(404);
  });
});

describe('web role: session endpoints against the real api', () => {
  let t: TestApp;
  let apiUrl: string;
  let web: FastifyInstance;

  beforeAll(async () => {
    t = await buildTestApp();
    apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    web = await buildWebServer(logger, {
      apiUrl,
      trustedProxies: LOOPBACK,
      timeoutMs: 5000,
      distDir: join(tmpdir(), 'no-such-dist'),
      secureCookie: true,
    });
  });
  afterAll(async () => {
    await web.close();
    await t.close();
  });

  const cookieOf = (setCookie: string | string[] | undefined) => String(setCookie).split(';')[0]!;

  it('register sets an HttpOnly SameSite=Lax cookie, keeps the token out of the page, and the proxy uses it', async () => {
    const email = `web-${Date.now()}@example.test`;
    const res = await web.inject({
      method: 'POST',
      url: '/api/session/register',
      payload: { email, password: 'password-123' },
    });
    expect(res.statusCode).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^ai_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    expect(res.body).not.toContain('access_token');
    expect(res.json().user.email).toBe(email);

    const me = await web.inject({
      method: 'GET',
      url: '/api/proxy/auth/me',
      headers: { cookie: cookieOf(setCookie) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(email);
    expect((await web.inject({ method: 'GET', url: '/api/proxy/auth/me' })).statusCode).toBe(401);
  });

  it('login with a wrong password answers 401 and sets no cookie; logout clears it', async () => {
    const email = `web2-${Date.now()}@example.test`;
    await web.inject({
      method: 'POST',
      url: '/api/session/register',
      payload: { email, password: 'password-123' },
    });
    const bad = await web.inject({
      method: 'POST',
      url: '/api/session',
      payload: { email, password: 'nope-nope' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['set-cookie']).toBeUndefined();
    expect(bad.json().error.code).toBeTruthy();

    const ok = await web.inject({
      method: 'POST',
      url: '/api/session',
      payload: { email, password: 'password-123' },
    });
    expect(ok.statusCode).toBe(200);
    expect(String(ok.headers['set-cookie'])).toContain('HttpOnly');

    const cookie = cookieOf(ok.headers['set-cookie']);
    expect(
      (await web.inject({ method: 'GET', url: '/api/proxy/auth/me', headers: { cookie } })).statusCode,
    ).toBe(200);
    const out = await web.inject({ method: 'DELETE', url: '/api/session', headers: { cookie } });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^ai_session=; .*Max-Age=0/);
    // the token was revoked at the backend: a copy of the cookie no longer works
    expect(
      (await web.inject({ method: 'GET', url: '/api/proxy/auth/me', headers: { cookie } })).statusCode,
    ).toBe(401);
    // signing out without a session is fine too
    expect((await web.inject({ method: 'DELETE', url: '/api/session' })).statusCode).toBe(204);
  });

  it('passes validation errors of the api through unchanged', async () => {
    const res = await web.inject({
      method: 'POST',
      url: '/api/session/register',
      payload: { email: 'x', password: '1' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('validation_error');
  });
});

describe('spaIsStale', () => {
  it('is stale without a build and after a source changes, fresh otherwise', () => {
    const web = mkdtempSync(join(tmpdir(), 'web-src-'));
    mkdirSync(join(web, 'src'));
    writeFileSync(join(web, 'src', 'main.tsx'), 'x');
    expect(spaIsStale(web)).toBe(true);
    mkdirSync(join(web, 'dist'));
    writeFileSync(join(web, 'dist', 'index.html'), 'x');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(web, 'src', 'main.tsx'), past, past);
    utimesSync(join(web, 'src'), past, past);
    utimesSync(web, past, past);
    expect(spaIsStale(web)).toBe(false);
    writeFileSync(join(web, 'src', 'new.tsx'), 'y');
    expect(spaIsStale(web)).toBe(true);
    rmSync(web, { recursive: true, force: true });
  });
});
