import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** One address a host resolved to, as `net.connect` takes it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; `dns.promises.lookup(host, { all: true })` by default. */
export type HostResolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/**
 * Why `address` may not be reached, or undefined when it may. An allow-list: only ipaddr.js's
 * `unicast` range passes (after IPv4-mapped IPv6 is unwrapped), so loopback, private, link-local
 * (cloud metadata at 169.254.169.254), CGNAT, unspecified, multicast, broadcast, reserved,
 * NAT64 and 6to4 are all refused. `allowPrivate` lets every parseable address through.
 */
export function addressRefusal(address: string, allowPrivate: boolean): string | undefined {
  if (net.isIP(address) === 0) return `"${address}" is not an IP address`;
  if (allowPrivate) return undefined;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : `${address} is a ${range} address`;
}

/** The URL's hostname without IPv6 brackets, and its IP family when it is an address already. */
export function bareHost(hostname: string): { host: string; literal: 0 | 4 | 6 } {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return { host, literal: net.isIP(host) as 0 | 4 | 6 };
}
