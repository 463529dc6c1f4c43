import ipaddr from 'ipaddr.js';

/**
 * Addresses or CIDRs (`127.0.0.1/8`, `::1/128`, `10.0.0.5`) parsed once; `allows(ip)` tests a socket
 * address against them. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) counts as its IPv4 form.
 */
export class NetworkAllowList {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(entries: readonly string[]) {
    this.ranges = entries.map((entry) => {
      const e = entry.trim();
      if (e.includes('/')) return ipaddr.parseCIDR(e);
      const ip = ipaddr.parse(e);
      return [ip, ip.kind() === 'ipv4' ? 32 : 128];
    });
  }

  /** throws with the offending entry when one is neither an address nor a CIDR (config check) */
  static validate(entries: readonly string[]): string[] {
    return entries.flatMap((e) => {
      try {
        new NetworkAllowList([e]);
        return [];
      } catch {
        return [e];
      }
    });
  }

  allows(address: string | undefined): boolean {
    if (!address || !ipaddr.isValid(address)) return false;
    let ip = ipaddr.parse(address);
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
      ip = (ip as ipaddr.IPv6).toIPv4Address();
    return this.ranges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
  }
}
