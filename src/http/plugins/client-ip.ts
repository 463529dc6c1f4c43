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

/** answers of the compiled rule per address: proxy-addr parses the address on every call */
const TRUST_MEMO_MAX = 10_000;

function trustOf(trustedProxies: readonly string[]): Trust {
  let trust = compiled.get(trustedProxies);
  if (!trust) {
    const rule = proxyAddr.compile([...trustedProxies]) as Trust;
    const memo = new Map<string, boolean>();
    trust = (addr) => {
      let yes = memo.get(addr);
      if (yes === undefined) {
        yes = rule(addr, 0);
        if (memo.size >= TRUST_MEMO_MAX) memo.clear();
        memo.set(addr, yes);
      }
      return yes;
    };
    compiled.set(trustedProxies, trust);
  }
  return trust;
}

/** dotted-quad IPv4 without leading zeros: already canonical, no parse needed (the common case) */
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The address in its canonical text, IPv4-mapped IPv6 as IPv4; null when it is not an address. */
export function canonicalIp(text: string): string | null {
  const s = text.trim();
  if (!s || s.length > 45) return null;
  if (IPV4.test(s)) return s;
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
 * The client's address by the proxy-addr rule (DESIGN.md §4): start at the socket peer; while the
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
