import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticles, makeTopic, type ArticleRow } from '../helpers/article-factories.js';
import proxyAddr from '@fastify/proxy-addr';
import { loadConfig, ConfigError } from '../../src/config.js';
import { canonicalIp, trustOf } from '../../src/http/plugins/client-ip.js';

/**
 * The client address by the proxy-addr rule (docs/decisions/0014-client-address.md): a proxy that appends to X-Forwarded-For
 * (nginx `$proxy_add_x_forwarded_for`) is trusted, what the client wrote on the left is not.
 */
describe('client address behind an appending proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { RATE_LIMIT_LOGIN_PER_MINUTE: '10', RATE_LIMIT_REGISTER_PER_HOUR: '3' },
    });
  });
  afterAll(() => t.close());

  // one account per attempt: the per-address limit is under test, not the per-account one
  let attempt = 0;
  const login = (xff: string) =>
    t.app.inject({
      method: 'POST',
      url: '/auth/login',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': xff },
      payload: { email: `nobody-${++attempt}@example.test`, password: 'wrong-password' },
    });

  it('spoofed left-most entries do not bypass the login limit (429 from try 11)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++)
      // the client forged "10.9.x.y" (and junk); the proxy appended the real peer 203.0.113.7
      statuses.push((await login(`10.9.${i}.1, not-an-ip-${i}, 203.0.113.7`)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
    // another client behind the same proxy keeps its own budget
    expect((await login('198.51.100.9')).statusCode).toBe(401);
  });

  it('entries that are not addresses are skipped, also an 8 KB one', async () => {
    const junk = 'x'.repeat(8 * 1024);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login(`198.51.100.77, ${junk}${i}`)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('a chain of trusted proxies is walked to the first untrusted address', async () => {
    const t2 = await buildTestApp({
      env: { RATE_LIMIT_LOGIN_PER_MINUTE: '2', TRUSTED_PROXIES: 'loopback, 10.0.0.0/8' },
    });
    try {
      const at = (xff: string) =>
        t2.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': xff },
          payload: { email: 'nobody@example.test', password: 'wrong-password' },
        });
      // 192.0.2.1 then two internal hops: the client is 192.0.2.1 whatever is left of it
      const s = [];
      for (let i = 0; i < 3; i++)
        s.push((await at(`${i}.${i}.${i}.${i}, 192.0.2.1, 10.1.1.1, 10.2.2.2`)).statusCode);
      expect(s).toEqual([401, 401, 429]);
    } finally {
      await t2.close();
    }
  });

  it('refuses TRUSTED_PROXIES entries that are neither addresses nor ranges', () => {
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, proxy.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1, loopback' })).not.toThrow();
  });
});

describe('views per client address', () => {
  let t: TestApp;
  let articles: ArticleRow[];
  let admin: { authorization: string };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await t.login('admin')).headers;
    const topic = await makeTopic(t.container.database.db);
    articles = await makeArticles(t.container.database.db, 2, () => ({ topicId: topic.id }));
  });
  afterAll(() => t.close());

  const view = (id: string, xff: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `/articles/${id}/view`,
      remoteAddress,
      headers: { 'x-forwarded-for': xff },
    });
  // the count readers see (stored plus still pending), whichever flush moved it: the recent-view
  // flush runs 2 s after a view, so on a busy machine it may move some of these views first
  const viewCount = async (id: string) => {
    await t.app.inject({ method: 'POST', url: '/admin/articles/flush-view-counts', headers: admin });
    return (await t.app.inject({ url: `/articles/${id}` })).json<{ view_count: number }>().view_count;
  };

  it('a rotating IPv6 /64 counts once; another /64 counts again', async () => {
    const a = articles[0]!.id;
    for (let i = 0; i < 200; i++) {
      const res = await view(a, `2001:db8:aa:bb:${i.toString(16)}:1:2:3`);
      expect(res.statusCode).toBe(204);
    }
    // the same network written in other forms, and directly from the socket
    await view(a, '2001:0db8:00aa:00bb::9');
    await view(a, '', '2001:db8:aa:bb::77');
    expect(await viewCount(a)).toBe(1);
    await view(a, '2001:db8:aa:bc::1');
    expect(await viewCount(a)).toBe(2);
  });

  it('200 views with forged left-most entries from one client count once', async () => {
    const b = articles[1]!.id;
    for (let i = 0; i < 200; i++) await view(b, `10.${i % 250}.0.1, 198.51.100.23`);
    expect(await viewCount(b)).toBe(1);
    // the dedup key is the canonical address, never the header's text
    const keys: string[] = [];
    for await (const chunk of t.container.cache.scan('viewed:')) keys.push(...chunk);
    expect(keys).toContain(`viewed:198.51.100.23:${b}`);
    expect(keys).toContain(`viewed:2001:db8:aa:bb::/64:${articles[0]!.id}`);
    expect(keys.every((k) => k.length < 120)).toBe(true);
  });
});

describe('the trust rule', () => {
  // proxy-addr's own rule is the oracle: the IPv4 fast path must answer as it does
  const lists = [
    ['loopback'],
    ['loopback', 'linklocal', 'uniquelocal'],
    ['10.0.0.0/8', '192.0.2.17', '198.51.100.0/255.255.255.0', '::1'],
    ['::ffff:203.0.113.0/120', '2001:db8::/32'],
    ['0.0.0.0/1', '128.0.0.0/2'],
    ['172.16.0.0/12', '100.64.0.0/10', '8.8.8.8/32'],
  ];
  const octet = () =>
    [0, 1, 9, 10, 16, 31, 32, 64, 100, 127, 169, 172, 192, 203, 254, 255][Math.floor(Math.random() * 16)]!;
  const some = (n: number) =>
    Array.from({ length: n }, () => `${octet()}.${octet()}.${octet()}.${octet()}`).concat([
      '127.0.0.1',
      '10.255.255.255',
      '172.31.0.1',
      '172.32.0.1',
      '169.254.1.1',
      '203.0.113.9',
      '198.51.100.200',
      '192.0.2.17',
      '192.0.2.18',
      '8.8.8.8',
      '2001:db8::1',
      '::1',
      'fe80::1',
      'fd00::1',
      '2606:4700::1',
    ]);

  it.each(lists.map((l) => [l.join(', '), l]))('matches proxy-addr for %s', (_name, list) => {
    const ours = trustOf(list);
    const theirs = proxyAddr.compile([...list]) as (addr: string, i: number) => boolean;
    for (const addr of some(2000)) expect([addr, ours(addr, 0)]).toEqual([addr, theirs(addr, 0)]);
  });

  it('reads only canonical dotted quads as IPv4 text', () => {
    expect(canonicalIp('192.0.2.1')).toBe('192.0.2.1');
    expect(canonicalIp(' 192.0.2.1 ')).toBe('192.0.2.1');
    expect(canonicalIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(canonicalIp('2001:0DB8::0001')).toBe('2001:db8::1');
    for (const junk of ['192.0.2.256', '192.0.2.1.5', '1.2.3.-4', '1..2.3', 'a.b.c.d', '', 'x'.repeat(50)])
      expect(canonicalIp(junk)).toBeNull();
    // a leading zero is not canonical text: it is parsed (as ipaddr reads it), never taken as is
    expect(canonicalIp('192.0.2.010')).not.toBe('192.0.2.010');
  });
});
