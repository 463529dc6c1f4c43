import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';
import type { FastifyRequest } from 'fastify';

type Trust = (addr: string, hop: number) => boolean;

/** compiled once per TRUSTED_PROXIES list (the config's array is the same object for the process) */
const compiled = new WeakMap<readonly string[], Trust>();
/** a request's address, computed once however many hooks ask for it */
const resolved = new WeakMap<object, { ip: string; key: string }>();

/** More hops than any real proxy chain: an 8 KB header of junk is not walked entry by entry. */
const MAX_HOPS = 32;

/** proxy-addr's named ranges, their IPv4 part (the IPv6 part is left to proxy-addr) */
const NAMED_V4: Record<string, string[]> = {
  loopback: ['127.0.0.1/8'],
  linklocal: ['169.254.0.0/16'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
};

/**
 * The trust rule of a TRUSTED_PROXIES list. IPv4 addresses (nearly every client, and every hop of
 * a usual proxy chain) are matched as 32-bit numbers against the list's IPv4 ranges: no parse into
 * objects, nothing kept per address (a stream of fresh client addresses is the normal case). IPv6
 * addresses go through proxy-addr's compiled rule. An IPv4 range written as an IPv4-mapped IPv6
 * subnet (`::ffff:10.0.0.0/104`) is among the IPv4 ranges, as proxy-addr matches it.
 */
export function trustOf(trustedProxies: readonly string[]): Trust {
  let trust = compiled.get(trustedProxies);
  if (!trust) {
    const rule = proxyAddr.compile([...trustedProxies]) as Trust;
    const v4 = ipv4Ranges(trustedProxies);
    trust = (addr, hop) => {
      const n = ipv4Number(addr);
      if (n < 0) return rule(addr, hop);
      for (let i = 0; i < v4.length; i += 2) if ((n & v4[i]!) >>> 0 === v4[i + 1]) return true;
      return false;
    };
    compiled.set(trustedProxies, trust);
  }
  return trust;
}

/** [mask, network, mask, network, …] of the list's IPv4 ranges, as unsigned 32-bit numbers */
function ipv4Ranges(list: readonly string[]): number[] {
  const out: number[] = [];
  for (const entry of list.flatMap((e) => NAMED_V4[e] ?? [e])) {
    const slash = entry.lastIndexOf('/');
    const text = slash < 0 ? entry : entry.slice(0, slash);
    if (!ipaddr.isValid(text)) continue;
    let addr = ipaddr.parse(text);
    let bits = slash < 0 ? (addr.kind() === 'ipv4' ? 32 : 128) : Number(entry.slice(slash + 1));
    if (addr.kind() === 'ipv6') {
      const v6 = addr as ipaddr.IPv6;
      // only a mapped subnet whose prefix covers the ::ffff: marker spans IPv4 (proxy-addr's rule)
      if (!v6.isIPv4MappedAddress() || bits < 96) continue;
      addr = v6.toIPv4Address();
      bits -= 96;
    } else if (slash >= 0 && !/^\d+$/.test(entry.slice(slash + 1))) {
      bits = (ipaddr.parse(entry.slice(slash + 1)) as ipaddr.IPv4).prefixLengthFromSubnetMask() ?? -1;
    }
    if (!(bits >= 0 && bits <= 32)) continue;
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    out.push(mask, (ipv4Number(addr.toString()) & mask) >>> 0);
  }
  return out;
}

/**
 * A dotted-quad IPv4 address in canonical text (four decimal parts 0–255, no leading zeros, no
 * spaces) as an unsigned 32-bit number; -1 for anything else.
 */
function ipv4Number(s: string): number {
  const len = s.length;
  if (len < 7 || len > 15) return -1;
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) return -1;
      n = n * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits === 1 && part === 0) return -1; // a leading zero
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else return -1;
  }
  if (dots !== 3 || digits === 0) return -1;
  return n * 256 + part;
}

/** The address in its canonical text, IPv4-mapped IPv6 as IPv4; null when it is not an address. */
export function canonicalIp(text: string): string | null {
  if (ipv4Number(text) >= 0) return text;
  const s = text.trim();
  if (!s || s.length > 45) return null;
  if (ipv4Number(s) >= 0) return s;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(s);
  } catch {
    return null;
  }
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    return (addr as ipaddr.IPv6).toIPv4Address().toString();
  return addr.toString();
}

/**
 * The client's address by the proxy-addr rule (docs/decisions/0014-client-address.md): start at the socket peer; while the
 * address in hand is a trusted proxy, step to the next X-Forwarded-For entry from the right. The
 * first address that is not a trusted proxy is the client. Entries that are not IP addresses are
 * skipped, so a proxy that appends ($proxy_add_x_forwarded_for) cannot be fooled by what the client
 * wrote on the left, and junk never becomes a cache key.
 */
export function clientIp(req: FastifyRequest, trustedProxies: readonly string[]): string {
  return resolve(req, trustedProxies).ip;
}

/**
 * The key rate limits and view de-duplication count by: the client address, with IPv6 clients
 * grouped by their /64 (one subscriber's network, which rotates addresses freely within it).
 */
export function clientKey(req: FastifyRequest, trustedProxies: readonly string[]): string {
  return resolve(req, trustedProxies).key;
}

function resolve(req: FastifyRequest, trustedProxies: readonly string[]): { ip: string; key: string } {
  const raw = req.raw as object;
  const known = resolved.get(raw);
  if (known) return known;
  const ip = walk(req, trustOf(trustedProxies));
  const found = { ip, key: addressGroup(ip) };
  resolved.set(raw, found);
  return found;
}

function walk(req: FastifyRequest, trust: Trust): string {
  let current = canonicalIp(req.socket?.remoteAddress ?? req.ip ?? '') ?? 'unknown';
  if (current === 'unknown' || !trust(current, 0)) return current;
  const header = req.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return current;
  const entries = value.split(',');
  let hop = 1;
  for (let i = entries.length - 1; i >= 0 && hop <= MAX_HOPS; i--) {
    const addr = canonicalIp(entries[i]!);
    if (!addr) continue;
    current = addr;
    if (!trust(addr, hop++)) return addr;
  }
  // every address was a trusted proxy: the furthest one is the best we know
  return current;
}

/** IPv6 addresses by their /64 network (`2001:db8:1:2::/64`); IPv4 and anything else unchanged. */
export function addressGroup(ip: string): string {
  if (!ip.includes(':') || !ipaddr.IPv6.isValid(ip)) return ip;
  const parts = ipaddr.IPv6.parse(ip).parts;
  return `${parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
