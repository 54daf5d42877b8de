import { describe, expect, it } from '@jest/globals';
import { readEntryList } from './entry-list.js';
import { SERVICE_LIST } from './service-list.js';
import { VULNERABILITY_LIST } from './vulnerability-list.js';

const readServiceList = (value: unknown, path: string) => {
  const read = readEntryList(value, path, SERVICE_LIST);
  return 'problem' in read ? read : { services: read.entries };
};

const problem = (value: unknown) => {
  const read = readServiceList(value, 'assets[2].services');
  return 'problem' in read ? read.problem : null;
};

describe('readEntryList', () => {
  it('reads the entries, an absent optional value as null', () => {
    expect(
      readServiceList(
        [
          { port: 22, protocol: 'tcp' },
          { port: 53, protocol: 'udp', name: 'domain', product: null, version: '9.18' },
          { port: 22, protocol: 'sctp', name: '' },
        ],
        'services',
      ),
    ).toEqual({
      services: [
        { port: 22, protocol: 'tcp', name: null, product: null, version: null },
        { port: 53, protocol: 'udp', name: 'domain', product: null, version: '9.18' },
        { port: 22, protocol: 'sctp', name: '', product: null, version: null },
      ],
    });
    expect(readServiceList([], 'services')).toEqual({ services: [] });
  });

  it.each([
    [null, 'assets[2].services must be an array'],
    [{ port: 22 }, 'assets[2].services must be an array'],
    [[22], 'assets[2].services[0] must be an object'],
    [
      [{ port: 22, protocol: 'tcp', banner: 'x' }],
      'assets[2].services[0].banner is not an accepted property',
    ],
    [[{ protocol: 'tcp' }], 'assets[2].services[0].port must be an integer from 1 to 65535'],
    [
      [{ port: 0, protocol: 'tcp' }],
      'assets[2].services[0].port must be an integer from 1 to 65535',
    ],
    [
      [{ port: 65536, protocol: 'tcp' }],
      'assets[2].services[0].port must be an integer from 1 to 65535',
    ],
    [
      [{ port: '22', protocol: 'tcp' }],
      'assets[2].services[0].port must be an integer from 1 to 65535',
    ],
    [[{ port: 22 }], 'assets[2].services[0].protocol must be tcp, udp or sctp'],
    [[{ port: 22, protocol: 'TCP' }], 'assets[2].services[0].protocol must be tcp, udp or sctp'],
    [
      [{ port: 22, protocol: 'tcp', name: 'n'.repeat(65) }],
      'assets[2].services[0].name must be at most 64 characters long',
    ],
    [
      [{ port: 22, protocol: 'tcp', version: 'v'.repeat(256) }],
      'assets[2].services[0].version must be at most 255 characters long',
    ],
    [
      [
        { port: 22, protocol: 'tcp' },
        { port: 22, protocol: 'udp' },
        { port: 22, protocol: 'tcp', name: 'ssh' },
      ],
      'assets[2].services[2] repeats the port and protocol of assets[2].services[0] (22/tcp)',
    ],
  ])('refuses %j: %s', (value, message) => {
    expect(problem(value)).toBe(message);
  });
});

describe('readEntryList of vulnerabilities', () => {
  it('reads each entry whole and refuses an id given twice, naming both', () => {
    expect(
      readEntryList([{ id: 'CVE-1', score: 9.8 }], 'vulnerabilities', VULNERABILITY_LIST),
    ).toEqual({
      entries: [{ id: 'CVE-1', score: 9.8, summary: null, publishedDate: null }],
    });
    expect(
      readEntryList(
        [{ id: 'CVE-1' }, { id: 'CVE-2' }, { id: 'CVE-1', score: 2 }],
        'assets[0].vulnerabilities',
        VULNERABILITY_LIST,
      ),
    ).toEqual({
      problem: 'assets[0].vulnerabilities[2].id repeats assets[0].vulnerabilities[0].id',
    });
    expect(readEntryList([{ id: 'CVE-1', cvss: 2 }], 'v', VULNERABILITY_LIST)).toEqual({
      problem: 'v[0].cvss is not an accepted property',
    });
  });
});
