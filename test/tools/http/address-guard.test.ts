import { describe, expect, it } from 'vitest';
import { addressPolicy, addressRefusal } from '../../../src/tools/builtin/http/address-guard';

const closed = addressPolicy(false);

describe('address guard: IPv6 forms that embed an IPv4 address are judged by that address', () => {
  it.each([
    ['::127.0.0.1', 'compatible', 'loopback'],
    ['::7f00:1', 'compatible', 'loopback'],
    ['0:0:0:0:0:0:7f00:0001', 'compatible', 'loopback'],
    ['::169.254.169.254', 'compatible', 'linkLocal'],
    ['::ffff:10.0.0.1', 'mapped', 'private'],
    ['::ffff:0:127.0.0.1', 'translated', 'loopback'],
    ['64:ff9b::169.254.169.254', 'nat64', 'linkLocal'],
    ['64:ff9b:1:7f00:1::', 'nat64', 'loopback'],
    ['2002:7f00:1::1', '6to4', 'loopback'],
    ['2002:a9fe:a9fe::', '6to4', 'linkLocal'],
    // Teredo: server 8.8.8.8, client 127.0.0.1 stored inverted (80ff:fffe).
    ['2001:0:808:808::80ff:fffe', 'teredo', 'loopback'],
    ['2001:db8:1:2:0:5efe:a00:1', 'isatap', 'private'],
    ['2a00:1450::200:5efe:7f00:1', 'isatap', 'loopback'],
  ])('%s carries a refused IPv4 address (%s)', (address, form, range) => {
    const refusal = addressRefusal(address, closed);
    expect(refusal).toContain(`(${form})`);
    expect(refusal).toContain(`is a ${range} address`);
  });

  it('the forms the kernel treats as the IPv4 host pass when that host is public, and an opened IPv4 range opens them too', () => {
    expect(addressRefusal('::ffff:8.8.8.8', closed)).toBeUndefined();
    expect(addressRefusal('::8.8.8.8', closed)).toBeUndefined();
    expect(addressRefusal('::ffff:127.0.0.1', addressPolicy(false, ['127.0.0.1']))).toBeUndefined();
    expect(addressRefusal('::127.0.0.2', addressPolicy(false, ['127.0.0.1']))).toMatch(
      /127\.0\.0\.2 is a loopback address/,
    );
  });

  it('transition relays stay refused even when the IPv4 address they carry is public', () => {
    expect(addressRefusal('2002:808:808::1', closed)).toMatch(/is a 6to4 address/);
    expect(addressRefusal('64:ff9b::8.8.8.8', closed)).toMatch(/is a rfc6052 address/);
    expect(addressRefusal('2001:0:808:808::f7f7:f7f7', closed)).toMatch(/is a teredo address/);
  });

  it('IPv6 loopback and unspecified are IPv6 addresses, and ordinary global unicast passes', () => {
    expect(addressRefusal('::1', closed)).toBe('::1 is a loopback address');
    expect(addressRefusal('::', closed)).toBe(':: is a unspecified address');
    expect(addressRefusal('2a00:1450:4001:80b::200e', closed)).toBeUndefined();
    expect(addressRefusal('8.8.8.8', closed)).toBeUndefined();
  });
});
