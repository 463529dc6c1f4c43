/**
 * The SSRF guard of outbound fetches whose URL came from feed content (item links, redirects of a
 * source to another host). The address is checked where the socket is opened: the connector
 * resolves the host once, refuses any address outside public unicast (loopback, private,
 * link-local, unique-local, CGNAT, metadata, multicast, reserved, IPv4-mapped/NAT64 forms of those)
 * and connects to the address it checked, so neither a DNS answer that changes between check and
 * connect nor a numeric spelling of an address (`2130706434`, `0x7f000002`, `127.2`) gets through.
 * Hosts, IPs and CIDRs listed in FETCH_ALLOWED_HOSTS are let through.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Agent } from 'undici';
import { FetchRefusedError } from '../../application/pipeline/pipeline.ports.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A FETCH_ALLOWED_HOSTS entry that is neither a host name, an IP nor a CIDR, or null. */
function invalidAllowEntry(entry: string): string | null {
  if (entry.includes('/')) return ipaddr.isValidCIDR(entry) ? null : `${entry} is not a valid CIDR`;
  if (ipaddr.isValid(entry) || /^[a-z0-9.-]+$/i.test(entry)) return null;
  return `${entry} is not a host name, IP or CIDR`;
}

/** The address an IPv4-mapped IPv6 address stands for; any other address as it is. */
const unmapped = (a: Address): Address =>
  a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;

export class OutboundGuard {
  private readonly hosts = new Set<string>();
  private readonly ranges: [Address, number][] = [];

  constructor(
    allowed: string[] = [],
    private readonly resolve: Resolver = systemResolver,
  ) {
    for (const entry of allowed.map((e) => e.trim().toLowerCase()).filter(Boolean)) {
      const problem = invalidAllowEntry(entry);
      if (problem) throw new Error(`FETCH_ALLOWED_HOSTS: ${problem}`);
      if (entry.includes('/')) this.ranges.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(entry)) this.ranges.push([ipaddr.parse(entry), entry.includes(':') ? 128 : 32]);
      else this.hosts.add(entry.replace(/\.$/, ''));
    }
  }

  /** Why this address may not be reached (its range), or null when it may. */
  refusal(address: string): string | null {
    const parsed = unmapped(ipaddr.parse(address));
    const listed = this.ranges.some(([net, bits]) => {
      const n = unmapped(net);
      return n.kind() === parsed.kind() && parsed.match(n, n.kind() === net.kind() ? bits : bits - 96);
    });
    if (listed) return null;
    const range = parsed.range();
    return range === 'unicast' ? null : range;
  }

  /**
   * The checked addresses of a host, in resolver order; refuses when any of them is refused (a host
   * answering with one public and one private address is treated as private).
   */
  async addresses(hostname: string): Promise<string[]> {
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.hosts.has(host.replace(/\.$/, ''))) return isIP(host) ? [host] : this.resolve(host);
    const addresses = isIP(host) ? [host] : await this.resolve(host);
    if (!addresses.length) throw new FetchRefusedError(`${host} has no address`);
    for (const address of addresses) {
      const range = this.refusal(address);
      if (range)
        throw new FetchRefusedError(
          `refused to connect to ${host === address ? address : `${host} (${address})`}: ${range} address`,
        );
    }
    return addresses;
  }

  /**
   * An undici dispatcher whose every new connection goes through `addresses` first (undici loads
   * on the first fetch, not at start: an idle process never needs it).
   */
  async dispatcher(opts: { connectTimeoutMs: number }): Promise<Agent> {
    const { Agent, buildConnector } = await import('undici');
    const connect = buildConnector({ timeout: opts.connectTimeoutMs });
    return new Agent({
      connect: (options, callback) => {
        this.addresses(options.hostname).then(
          ([address]) => connect({ ...options, hostname: address! }, callback),
          (err: Error) => callback(err, null),
        );
      },
    });
  }
}
