import ipaddr from 'ipaddr.js';

/** An IPv4 address an IPv6 address carries, and how: `alias` forms reach that IPv4 host itself. */
export interface EmbeddedIPv4 {
  ipv4: ipaddr.IPv4;
  form: 'mapped' | 'compatible' | 'translated' | 'nat64' | '6to4' | 'teredo' | 'isatap';
  /** True when the kernel (or any translator) treats the IPv6 address as that IPv4 host: judge it by the IPv4 alone. */
  alias: boolean;
}

const v4 = (high: number, low: number): ipaddr.IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
const inRange = (ip: ipaddr.IPv6, prefix: number[], bits: number): boolean => ip.match(new ipaddr.IPv6(prefix), bits);

/**
 * Every IPv4 address embedded in `ip` by a standard transition form (RFC 4291 mapped and
 * compatible, RFC 6145 translated, RFC 6052/8215 NAT64, RFC 3056 6to4, RFC 4380 Teredo's server
 * and client, RFC 5214 ISATAP interface ids), so the guard can judge each by the IPv4 rules.
 * Pure arithmetic on the 16-bit parts: `[::127.0.0.1]`, `[::7f00:1]` and `[0::7f00:0001]` are one address.
 */
export function embeddedIPv4(ip: ipaddr.IPv6): EmbeddedIPv4[] {
  const p = ip.parts;
  if (inRange(ip, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96)) return [{ ipv4: v4(p[6]!, p[7]!), form: 'mapped', alias: true }];
  if (inRange(ip, [0, 0, 0, 0, 0xffff, 0, 0, 0], 96))
    return [{ ipv4: v4(p[6]!, p[7]!), form: 'translated', alias: true }];
  // ::/96 holds :: and ::1 too, which are IPv6's own unspecified and loopback addresses, not IPv4 ones.
  if (inRange(ip, [0, 0, 0, 0, 0, 0, 0, 0], 96) && (p[6] !== 0 || p[7]! > 1))
    return [{ ipv4: v4(p[6]!, p[7]!), form: 'compatible', alias: true }];
  if (inRange(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96))
    return [{ ipv4: v4(p[6]!, p[7]!), form: 'nat64', alias: false }];
  // A /48 NAT64 prefix (RFC 8215's local use) puts the IPv4 address in bits 48-63 and 72-87, around the zero `u` octet.
  if (inRange(ip, [0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48))
    return [{ ipv4: v4(p[3]!, ((p[4]! & 0xff) << 8) | (p[5]! >> 8)), form: 'nat64', alias: false }];
  if (inRange(ip, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16)) return [{ ipv4: v4(p[1]!, p[2]!), form: '6to4', alias: false }];
  if (inRange(ip, [0x2001, 0, 0, 0, 0, 0, 0, 0], 32)) {
    // The server's address in bits 32-63; the client's in the last 32 bits, every bit inverted.
    return [
      { ipv4: v4(p[2]!, p[3]!), form: 'teredo', alias: false },
      { ipv4: v4(~p[6]! & 0xffff, ~p[7]! & 0xffff), form: 'teredo', alias: false },
    ];
  }
  // ISATAP: any prefix, interface id 0000:5efe or 0200:5efe (the u/l bit set) then the IPv4 address.
  if ((p[4] === 0 || p[4] === 0x200) && p[5] === 0x5efe)
    return [{ ipv4: v4(p[6]!, p[7]!), form: 'isatap', alias: false }];
  return [];
}
