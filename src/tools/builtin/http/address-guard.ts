import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** One address a host resolved to, as `net.connect` takes it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; `dns.promises.lookup(host, { all: true })` by default. */
export type HostResolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** Which non-public addresses an operator opened: everything (`allowPrivate`) or some CIDR ranges. */
export interface AddressPolicy {
  allowPrivate: boolean;
  ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;
}

/** Parses `allowAddresses` entries (`127.0.0.1`, `10.0.0.0/8`, `::1/128`); throws on anything else. */
export function addressPolicy(allowPrivate: boolean | undefined, allowAddresses: readonly string[] = []): AddressPolicy {
  const ranges = allowAddresses.map((entry): [ipaddr.IPv4 | ipaddr.IPv6, number] => {
    try {
      if (entry.includes('/')) return ipaddr.parseCIDR(entry);
      const ip = ipaddr.parse(entry);
      return [ip, ip.kind() === 'ipv4' ? 32 : 128];
    } catch {
      throw new TypeError(`createHttpTool: allowAddresses entry "${entry}" is not an IP address or CIDR range.`);
    }
  });
  return { allowPrivate: allowPrivate === true, ranges };
}

/**
 * Why `address` may not be reached, or undefined when it may. An allow-list: only ipaddr.js's
 * `unicast` range passes (after IPv4-mapped IPv6 is unwrapped), so loopback, private, link-local
 * (cloud metadata at 169.254.169.254), CGNAT, unspecified, multicast, broadcast, reserved,
 * NAT64 and 6to4 are all refused, unless the policy opens them.
 */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  if (net.isIP(address) === 0) return `"${address}" is not an IP address`;
  if (policy.allowPrivate) return undefined;
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (policy.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return undefined;
  return `${address} is a ${range} address`;
}

/** The URL's hostname without IPv6 brackets, and its IP family when it is an address already. */
export function bareHost(hostname: string): { host: string; literal: 0 | 4 | 6 } {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return { host, literal: net.isIP(host) as 0 | 4 | 6 };
}
