import { describe, expect, it } from '@jest/globals';
import {
  MATCHED_ASSETS_SELECT,
  POSITIONED_SOURCES_SELECT,
  SERVICES_SELECT,
  SOURCES_SELECT,
} from './asset-selects.js';

// The reads derived from the column tables: their text is what the databases plan and cache.
describe("the reads of an asset's lists", () => {
  it('select every column, a date as its text', () => {
    expect(SERVICES_SELECT).toBe(
      'SELECT asset_id, port, protocol, name, product, version FROM services',
    );
    expect(SOURCES_SELECT).toBe('SELECT asset_id, source FROM asset_sources');
    expect(POSITIONED_SOURCES_SELECT).toBe('SELECT asset_id, source, position FROM asset_sources');
    expect(MATCHED_ASSETS_SELECT).toBe(
      'SELECT id, name, ip, type, vendor, model, risk_score, site, os_version, addresses, mac_addresses, hostnames, tags, source, CASE WHEN first_seen_at IS NULL THEN 0 ELSE 1 END AS seen FROM assets',
    );
  });
});
