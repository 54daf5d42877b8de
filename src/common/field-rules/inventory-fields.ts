import { MAX_ASSET_ID_LENGTH } from './inventory-values.js';
import { SERVICE_PROTOCOLS } from './inventory-values.js';
import { RelationDirection } from './inventory-values.js';
import {
  dateRule,
  enumRule,
  integerRule,
  ipRule,
  numberRule,
  optionalTextRule,
  portListRule,
  textRule,
} from './field-rule.js';

/*
 * The fields of the inventory as the API writes them, through REST and through ingestion: the
 * one place their limits live. The lengths are those of the database columns.
 */

/** An asset's id: a UUID the service makes, or the caller's own given at ingestion. */
export const ASSET_ID_RULE = textRule(1, MAX_ASSET_ID_LENGTH, { printable: true, example: 'fw-1' });

/**
 * The rule of every field an asset's item sets (the assets table's fields: the DTOs made from
 * them and the ingestion's checks fail to compile when one has no rule here). The REST DTOs,
 * the ingestion's checks and the OpenAPI schemas of a request and of an asset are made from
 * it, field by field.
 */
export const ASSET_FIELD_RULES = {
  name: textRule(1, 255, { example: 'core-switch' }),
  ip: ipRule({
    nullable: true,
    description:
      'An IPv4 address (dotted quad) or an IPv6 one, with an optional zone id (fe80::1%eth0); null clears it',
    example: '10.0.0.1',
  }),
  type: optionalTextRule(64, { example: 'switch' }),
  vendor: optionalTextRule(255, { example: 'Cisco' }),
  model: optionalTextRule(255, { example: 'Catalyst 9300' }),
  risk_score: integerRule(0, 100, { nullable: true, example: 40 }),
  site: optionalTextRule(255, { example: 'paris' }),
  os_version: optionalTextRule(255, { example: 'IOS-XE 17.9' }),
};

/**
 * The name of an ingestion feed: the ingestion's `options.source`, an entry of an asset's
 * `sources`, and the list's `source` filter. The width of the asset_sources column.
 */
export const SOURCE_RULE = textRule(1, 100, { example: 'nmap-dmz' });

export const VULNERABILITY_FIELDS = {
  id: textRule(1, 64, { example: 'CVE-2024-3400' }),
  score: numberRule(0, 10, { nullable: true, example: 10 }),
  summary: optionalTextRule(2000, { example: 'PAN-OS RCE' }),
  publishedDate: dateRule({
    nullable: true,
    description: 'A real calendar date, YYYY-MM-DD',
    example: '2024-04-12',
  }),
};

/** An entry of an asset's `services`; the port is also the list's `port` filter. */
export const SERVICE_FIELDS = {
  port: integerRule(1, 65535, { example: 443 }),
  protocol: enumRule(SERVICE_PROTOCOLS, 'ServiceProtocol', { example: 'tcp' }),
  name: optionalTextRule(64, { example: 'https' }),
  product: optionalTextRule(255, { example: 'nginx' }),
  version: optionalTextRule(255, { example: '1.24.0' }),
};

export const RELATION_FIELDS = {
  sourceAssetId: textRule(1, MAX_ASSET_ID_LENGTH, {
    description: 'The id of an existing asset',
    example: 'web-01',
  }),
  targetAssetId: textRule(1, MAX_ASSET_ID_LENGTH, {
    description: 'The id of an existing asset, other than sourceAssetId',
    example: 'core-switch',
  }),
  type: textRule(1, 64, { example: 'uplink' }),
  direction: enumRule(Object.values(RelationDirection), 'RelationDirection', {
    description: 'bi when a relation is created without it; cannot be null',
  }),
  protocol: optionalTextRule(32, { example: 'tcp' }),
  toPorts: portListRule({
    nullable: true,
    description:
      "Comma-separated ports or port ranges, each port from 1 to 65535 and a range's start at most its end; no spaces or leading zeros; null clears it",
    example: '443,8000-8080',
  }),
};
