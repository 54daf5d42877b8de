import { describe, expect, it } from '@jest/globals';
import { isRefusedAddress } from './address-check.js';

// Parsed addresses only: nothing here connects anywhere.
describe('isRefusedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'fc00::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(['198.51.100.7', '203.0.113.9', '172.32.0.1', '2001:db8::1', '::ffff:203.0.113.9'])(
    'accepts %s',
    (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );
});
