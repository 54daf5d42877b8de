import { describe, expect, it } from '@jest/globals';
import {
  addressKey,
  normalizeAddress,
  normalizeHostname,
  normalizeMac,
  normalizeTag,
  prefixKeyRange,
  readIdentityList,
  resolveAddresses,
} from './identity-values.js';

describe('identity values', () => {
  it('writes IPv6 addresses in their RFC 5952 form, IPv4 as given, and refuses others', () => {
    expect(normalizeAddress('10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeAddress('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(normalizeAddress('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(normalizeAddress('FE80::1%eth0')).toBe('fe80::1%eth0');
    expect(normalizeAddress('::ffff:10.0.0.1')).toBe('::ffff:a00:1');
    expect(normalizeAddress('::')).toBe('::');
    expect(normalizeAddress('1:2:3:4:5:6:7:8')).toBe('1:2:3:4:5:6:7:8');
    expect(normalizeAddress('10.0.0.256')).toBeNull();
    expect(normalizeAddress('host')).toBeNull();
    expect(normalizeAddress(7)).toBeNull();
  });

  it('reads a MAC address in any common notation, written lower case with colons', () => {
    for (const mac of ['AA:BB:CC:DD:EE:0F', 'aa-bb-cc-dd-ee-0f', 'aabb.ccdd.ee0f', 'AABBCCDDEE0F'])
      expect(normalizeMac(mac)).toBe('aa:bb:cc:dd:ee:0f');
    expect(normalizeMac('aa:bb:cc:dd:ee')).toBeNull();
    expect(normalizeMac('aa:bb-cc:dd:ee:gg')).toBeNull();
  });

  it('writes host names in lower case, without a final dot, up to 253 characters', () => {
    expect(normalizeHostname('Web-01.Example.COM.')).toBe('web-01.example.com');
    expect(normalizeHostname('_ldap._tcp.dc')).toBe('_ldap._tcp.dc');
    expect(normalizeHostname('-bad.example')).toBeNull();
    expect(normalizeHostname('a b')).toBeNull();
    expect(normalizeHostname(`${'a'.repeat(63)}.`.repeat(4).slice(0, 254))).toBeNull();
    expect(normalizeHostname(`${'a'.repeat(61)}.`.repeat(4) + 'a')).toHaveLength(249);
  });

  it('reads a list: normalized, repeats left out, at most 64 entries, the first bad one named', () => {
    expect(
      readIdentityList('macAddresses', ['AA-BB-CC-DD-EE-FF', 'aa:bb:cc:dd:ee:ff'], 'x'),
    ).toEqual({ values: ['aa:bb:cc:dd:ee:ff'] });
    expect(readIdentityList('addresses', ['10.0.0.1', 'nope'], 'assets[1].addresses')).toEqual({
      problem: 'assets[1].addresses[1] must be an IP address',
    });
    expect(readIdentityList('hostnames', 'a', 'hostnames')).toEqual({
      problem: 'hostnames must be an array of at most 64 entries',
    });
    expect(
      readIdentityList(
        'addresses',
        Array.from({ length: 65 }, (_, i) => `10.0.0.${i}`),
        'addresses',
      ),
    ).toEqual({ problem: 'addresses must be an array of at most 64 entries' });
  });

  it('keeps a tag as given: 1 to 64 printable characters, none of them white space', () => {
    for (const tag of ['internet', 'PCI', 'say:"hi"', 'a\\b', 'café', `${'x'.repeat(63)}😀`])
      expect(normalizeTag(tag)).toBe(tag);
    for (const tag of ['', 'two words', 'tab\there', 'no\u00a0break', 'x'.repeat(65), 'a\u0000', 7])
      expect(normalizeTag(tag)).toBeNull();
    expect(readIdentityList('tags', ['a', 'b', 'a'], 'tags')).toEqual({ values: ['a', 'b'] });
    expect(readIdentityList('tags', ['a', 'b c'], 'assets[2].tags')).toEqual({
      problem: 'assets[2].tags[1] must be 1 to 64 printable characters without white space',
    });
    expect(
      readIdentityList(
        'tags',
        Array.from({ length: 33 }, (_, i) => `t${i}`),
        'tags',
      ),
    ).toEqual({
      problem: 'tags must be an array of at most 32 entries',
    });
  });

  it('keys addresses so that a prefix is a range of keys', () => {
    expect(addressKey('10.20.0.1')).toBe('40a140001');
    expect(addressKey('::1')).toBe(`6${'0'.repeat(31)}1`);
    expect(addressKey('fe80::1%eth0')).toBe(addressKey('fe80::1'));
    expect(prefixKeyRange('10.20.0.0/16')).toEqual({ low: '40a140000', high: '40a14ffff' });
    expect(prefixKeyRange('10.20.16.0/20')).toEqual({ low: '40a141000', high: '40a141fff' });
    expect(prefixKeyRange('10.0.0.7/32')).toEqual({ low: '40a000007', high: '40a000007' });
    expect(prefixKeyRange('0.0.0.0/0')).toEqual({ low: '400000000', high: '4ffffffff' });
    expect(prefixKeyRange('2001:db8::/32')).toEqual({
      low: `620010db8${'0'.repeat(24)}`,
      high: `620010db8${'f'.repeat(24)}`,
    });
    expect(prefixKeyRange('10.0.0.0/33')).toBeNull();
    expect(prefixKeyRange('10.0.0.0')).toBeNull();
    expect(prefixKeyRange('nope/8')).toBeNull();
  });

  it('keeps ip the first address, whichever of the two a write gives', () => {
    const stored = ['10.0.0.1', '10.0.0.2'];
    expect(resolveAddresses(undefined, undefined, stored)).toEqual({
      ip: '10.0.0.1',
      addresses: stored,
    });
    expect(resolveAddresses('10.0.0.9', undefined, stored)).toEqual({
      ip: '10.0.0.9',
      addresses: ['10.0.0.9', '10.0.0.2'],
    });
    expect(resolveAddresses('10.0.0.2', undefined, stored)).toEqual({
      ip: '10.0.0.2',
      addresses: ['10.0.0.2'],
    });
    expect(resolveAddresses(null, undefined, stored)).toEqual({
      ip: '10.0.0.2',
      addresses: ['10.0.0.2'],
    });
    expect(resolveAddresses(undefined, ['::1', '10.0.0.1'], stored)).toEqual({
      ip: '::1',
      addresses: ['::1', '10.0.0.1'],
    });
    expect(resolveAddresses(undefined, [], stored)).toEqual({ ip: null, addresses: [] });
    expect(resolveAddresses('0::1', ['::1'], stored)).toEqual({ ip: '::1', addresses: ['::1'] });
    expect(resolveAddresses(null, [], stored)).toEqual({ ip: null, addresses: [] });
    expect(resolveAddresses('10.0.0.2', ['10.0.0.1', '10.0.0.2'], [])).toEqual({
      problem: 'ip must be the first of addresses when both are given',
    });
    expect(resolveAddresses('10.0.0.1', undefined, [])).toEqual({
      ip: '10.0.0.1',
      addresses: ['10.0.0.1'],
    });
  });
});
