import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpPeer } from '../peers/http-peer.js';
import { FetchRefusedError } from '../../src/application/pipeline/pipeline.ports.js';
import { HttpFeedReader, HttpPageReader } from '../../src/infrastructure/feeds/feed-reader.js';
import { HttpFetcher } from '../../src/infrastructure/feeds/http-fetcher.js';
import { OutboundGuard } from '../../src/infrastructure/http/outbound-guard.js';
import { rssFeed, makeItem } from '../helpers/pipeline-factories.js';

/**
 * An "internal" service on 127.0.0.2 (all of 127/8 is loopback on Linux): what an attacker's item
 * link or redirect points at. It counts what reaches it, so a refusal is shown to happen before
 * any connection, and the allowed case proves it is reachable.
 */
let internal: Server;
let internalHits = 0;
let port = 0;
let peer: HttpPeer;
/** another service on the source's own host (127.0.0.1), another port */
let sameHost: Server;
let samePort = 0;
let sameHostHits = 0;

beforeAll(async () => {
  internal = createServer((_req, res) => {
    internalHits++;
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>secret</title><p>instance credentials</p>');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
  port = (internal.address() as AddressInfo).port;
  sameHost = createServer((_req, res) => {
    sameHostHits++;
    res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed([makeItem()]));
  });
  await new Promise<void>((resolve) => sameHost.listen(0, '127.0.0.1', resolve));
  samePort = (sameHost.address() as AddressInfo).port;
  peer = await new HttpPeer((req, res) => {
    if (req.path === '/to-internal')
      return void res.writeHead(302, { location: `http://127.0.0.2:${port}/` }).end();
    if (req.path === '/to-other-port')
      return void res.writeHead(302, { location: `http://127.0.0.1:${samePort}/` }).end();
    if (req.path === '/to-self') return void res.writeHead(301, { location: '/feed' }).end();
    if (req.path === '/feed')
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed([makeItem()]));
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<title>Public</title><p>Page text.</p>');
  }).start();
});
afterAll(async () => {
  await peer.stop();
  await new Promise((resolve) => internal.close(resolve));
  await new Promise((resolve) => sameHost.close(resolve));
});

const pages = (allowed: string[]) =>
  new HttpPageReader(new HttpFetcher({ timeoutMs: 3000 }, new OutboundGuard(allowed)));

describe('URLs from feed content (item links) go through the SSRF guard', () => {
  it('refuses an item link to 127.0.0.2 before connecting, and reads it once allowed', async () => {
    const before = internalHits;
    await expect(pages(['127.0.0.1']).read(`http://127.0.0.2:${port}/`)).rejects.toThrow(FetchRefusedError);
    await expect(pages(['127.0.0.1']).read(`http://127.0.0.2:${port}/`)).rejects.toThrow(/loopback address/);
    expect(internalHits).toBe(before);
    // the same fetch with the host listed reaches it: the refusal above is the guard's, not the network's
    expect(await pages(['127.0.0.2']).read(`http://127.0.0.2:${port}/`)).toMatchObject({ title: 'secret' });
    expect(internalHits).toBe(before + 1);
  });

  it('refuses a redirect from an allowed host into 127.0.0.2', async () => {
    const before = internalHits;
    const hops = peer.requests.length;
    await expect(pages(['127.0.0.1']).read(`${peer.url}/to-internal`)).rejects.toThrow(FetchRefusedError);
    expect(peer.requests.length).toBe(hops + 1);
    expect(internalHits).toBe(before);
  });

  it.each(['2130706434', '0x7f000002', '127.2', '0177.0.0.2', '[::ffff:127.0.0.2]', '[::ffff:7f00:2]'])(
    'refuses the numeric spelling http://%s/ of 127.0.0.2',
    async (host) => {
      const before = internalHits;
      await expect(pages(['127.0.0.1']).read(`http://${host}:${port}/`)).rejects.toThrow(FetchRefusedError);
      expect(internalHits).toBe(before);
    },
  );

  it('reads an allowed host', async () => {
    expect(await pages(['127.0.0.1']).read(`${peer.url}/page`)).toEqual({
      title: 'Public',
      text: 'Page text.',
    });
  });

  it('refuses private, link-local, metadata, CGNAT and unique-local addresses, by literal or by DNS', async () => {
    const guard = new OutboundGuard([]);
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ])
      expect(guard.refusal(a), a).not.toBeNull();
    for (const a of ['93.184.216.34', '2606:4700:4700::1111']) expect(guard.refusal(a), a).toBeNull();
    // a public-looking name that resolves to a private address is refused on the resolved address
    const rebinding = new OutboundGuard([], () => Promise.resolve(['93.184.216.34', '10.0.0.7']));
    await expect(rebinding.addresses('news.example.org')).rejects.toThrow(/10\.0\.0\.7/);
    // CIDRs and names in FETCH_ALLOWED_HOSTS let an intranet through
    const allowed = new OutboundGuard(['10.0.0.0/8', 'intranet.local'], () =>
      Promise.resolve(['192.168.5.5']),
    );
    expect(allowed.refusal('10.9.9.9')).toBeNull();
    await expect(allowed.addresses('intranet.local')).resolves.toEqual(['192.168.5.5']);
    expect(() => new OutboundGuard(['10.0.0.0/99'])).toThrow(/FETCH_ALLOWED_HOSTS/);
  });
});

describe('a source URL entered by an admin', () => {
  const feeds = () => new HttpFeedReader(new HttpFetcher({ timeoutMs: 3000 }, new OutboundGuard([])));
  const source = (url: string) => ({ url, kind: 'rss' as const, etag: null, lastModified: null });

  it('may point at an intranet host and redirect within it', async () => {
    const res = await feeds().read(source(`${peer.url}/to-self`));
    expect(res.notModified === false && res.entries).toHaveLength(1);
  });

  it('may not redirect to another, non-public host', async () => {
    const before = internalHits;
    await expect(feeds().read(source(`${peer.url}/to-internal`))).rejects.toThrow(FetchRefusedError);
    expect(internalHits).toBe(before);
  });

  it('may not redirect to another port of its own host unless that host is allowed', async () => {
    await expect(feeds().read(source(`${peer.url}/to-other-port`))).rejects.toThrow(FetchRefusedError);
    expect(sameHostHits).toBe(0);
    const allowed = new HttpFeedReader(
      new HttpFetcher({ timeoutMs: 3000 }, new OutboundGuard(['127.0.0.1'])),
    );
    const res = await allowed.read(source(`${peer.url}/to-other-port`));
    expect(res.notModified === false && res.entries).toHaveLength(1);
    expect(sameHostHits).toBe(1);
  });
});
