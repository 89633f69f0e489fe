import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4 } from './embedded-ipv4';

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
export function addressPolicy(
  allowPrivate: boolean | undefined,
  allowAddresses: readonly string[] = [],
): AddressPolicy {
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
 * `unicast` range passes, so loopback, private, link-local (cloud metadata at 169.254.169.254),
 * CGNAT, unspecified, multicast, broadcast, reserved, NAT64, 6to4 and Teredo are all refused,
 * unless the policy opens them. An IPv6 address that embeds IPv4 addresses (mapped, compatible,
 * translated, NAT64, 6to4, Teredo, ISATAP) is refused when any of them would be; the forms the
 * kernel treats as the IPv4 host itself are then judged by that address alone.
 */
export function addressRefusal(address: string, policy: AddressPolicy): string | undefined {
  if (net.isIP(address) === 0) return `"${address}" is not an IP address`;
  if (policy.allowPrivate) return undefined;
  if (net.isIP(address) === 4) return rangeRefusal(ipaddr.IPv4.parse(address), policy, address);
  const ip = exactIPv6(address);
  if (!ip) return `"${address}" is not an IPv6 address this guard can read`;
  const embedded = embeddedIPv4(ip);
  for (const { ipv4, form } of embedded) {
    const refused = rangeRefusal(ipv4, policy, ipv4.toString());
    if (refused) return `${address} carries the IPv4 address ${ipv4.toString()} (${form}), and ${refused}`;
  }
  if (embedded.length > 0 && embedded.every((e) => e.alias)) return undefined;
  return rangeRefusal(ip, policy, address);
}

/**
 * The 128 bits the kernel connects to. ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`, a
 * different address; the URL parser writes every IPv6 form in hex first. Zone ids are refused.
 */
function exactIPv6(address: string): ipaddr.IPv6 | undefined {
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

function rangeRefusal(ip: ipaddr.IPv4 | ipaddr.IPv6, policy: AddressPolicy, shown: string): string | undefined {
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (policy.ranges.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits))) return undefined;
  return `${shown} is a ${range} address`;
}

/** The URL's hostname without IPv6 brackets, and its IP family when it is an address already. */
export function bareHost(hostname: string): { host: string; literal: 0 | 4 | 6 } {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return { host, literal: net.isIP(host) as 0 | 4 | 6 };
}

/** Why a host may not be connected to: it did not resolve, or one of its addresses is refused. */
export type ResolveRefusal =
  { kind: 'unresolved'; message: string } | { kind: 'refused'; host: string; reason: string };

/**
 * Resolves the URL's host and checks every address it has against `policy` (one refused address
 * refuses the host: a resolver may answer differently at connect time); the first is the one the
 * connection is pinned to. Each caller words the refusal as its own error.
 */
export async function resolvePinnedAddress(
  url: URL,
  resolveHost: HostResolver,
  policy: AddressPolicy,
): Promise<ResolvedAddress | ResolveRefusal> {
  const { host, literal } = bareHost(url.hostname);
  let addresses: ReadonlyArray<{ address: string; family: number }>;
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await resolveHost(host);
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code ?? String(err);
      return { kind: 'unresolved', message: `${host} could not be resolved (${why}).` };
    }
  }
  if (addresses.length === 0) return { kind: 'unresolved', message: `${host} resolved to no address.` };
  for (const { address } of addresses) {
    const reason = addressRefusal(address, policy);
    if (reason) return { kind: 'refused', host, reason };
  }
  const [first] = addresses;
  return { address: first!.address, family: first!.family === 6 ? 6 : 4 };
}
