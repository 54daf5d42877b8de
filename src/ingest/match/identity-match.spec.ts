import { describe, expect, it } from '@jest/globals';
import type { IngestAsset } from '../ingest-payload.js';
import {
  identityCandidates,
  itemIdentifiers,
  type IdentityMatchKey,
  type MatchRule,
} from './identity-match.js';

interface Stored {
  id: string;
  site: string | null;
  created: number;
}

const item = (rest: Partial<IngestAsset>): IngestAsset => ({ index: 0, fields: {}, ...rest });
const byCreation = (a: Stored, b: Stored) => a.created - b.created;

/** Stored assets by (kind value): what the identifier lookups found. */
function holdersOf(entries: [string, Stored[]][]) {
  const map = new Map(entries);
  return (kind: string, value: string) => map.get(`${kind} ${value}`);
}

const rule = (keys: IdentityMatchKey[], site: string | null = null): MatchRule => ({ keys, site });

describe('identity matching', () => {
  const paris = { id: 'paris', site: 'paris', created: 2 };
  const lyon = { id: 'lyon', site: 'lyon', created: 1 };
  const nowhere = { id: 'nowhere', site: null, created: 3 };
  const macHolder = { id: 'mac-holder', site: 'lyon', created: 9 };
  const named = { id: 'named', site: 'paris', created: 0 };
  const holders = holdersOf([
    ['ip 40a000001', [paris, lyon, nowhere]],
    ['mac aa:bb:cc:dd:ee:ff', [macHolder]],
    ['host web', [named]],
  ]);

  it('looks items up by their addresses (the ip alone when no list), MAC addresses, host names', () => {
    expect(itemIdentifiers(item({ fields: { ip: '10.0.0.1' } }), 'ip')).toEqual(['40a000001']);
    expect(
      itemIdentifiers(
        item({ fields: { ip: '10.0.0.1' }, identity: { addresses: ['10.0.0.2', '::1'] } }),
        'ip',
      ),
    ).toEqual(['40a000002', `6${'0'.repeat(31)}1`]);
    expect(
      itemIdentifiers(item({ identity: { macAddresses: ['aa:bb:cc:dd:ee:ff'] } }), 'mac'),
    ).toEqual(['aa:bb:cc:dd:ee:ff']);
    expect(itemIdentifiers(item({}), 'hostname')).toEqual([]);
  });

  it('tries mac, then ip, then hostname, whatever order the keys were given in, each asset once', () => {
    const asset = item({
      fields: { ip: '10.0.0.1' },
      identity: { macAddresses: ['aa:bb:cc:dd:ee:ff'], hostnames: ['web'] },
    });
    const ids = (keys: IdentityMatchKey[]) =>
      identityCandidates(asset, rule(keys), holders, byCreation).map((found) => found.id);
    expect(ids(['hostname', 'ip', 'mac'])).toEqual([
      'mac-holder',
      'lyon',
      'paris',
      'nowhere',
      'named',
    ]);
    expect(ids(['mac', 'ip'])).toEqual(['mac-holder', 'lyon', 'paris', 'nowhere']);
    expect(ids(['ip'])).toEqual(['lyon', 'paris', 'nowhere']);
    expect(ids([])).toEqual([]);
  });

  it('with a site, matches by ip and hostname only assets of that site, by mac across sites', () => {
    const asset = item({
      fields: { ip: '10.0.0.1', site: 'paris' },
      identity: { macAddresses: ['aa:bb:cc:dd:ee:ff'], hostnames: ['web'] },
    });
    expect(
      identityCandidates(asset, rule(['mac', 'ip', 'hostname']), holders, byCreation).map(
        (found) => found.id,
      ),
    ).toEqual(['mac-holder', 'paris', 'named']);
  });

  it("takes the run's site when the item has none; without any, matches across sites", () => {
    const asset = item({ fields: { ip: '10.0.0.1' } });
    const ids = (site: string | null) =>
      identityCandidates(asset, rule(['ip'], site), holders, byCreation).map((found) => found.id);
    expect(ids('lyon')).toEqual(['lyon']);
    expect(ids('berlin')).toEqual([]);
    expect(ids(null)).toEqual(['lyon', 'paris', 'nowhere']);
    const own = item({ fields: { ip: '10.0.0.1', site: 'paris' } });
    expect(
      identityCandidates(own, rule(['ip'], 'lyon'), holders, byCreation).map((f) => f.id),
    ).toEqual(['paris']);
  });
});
