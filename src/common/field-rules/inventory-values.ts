/**
 * Values the inventory's fields take, shared by the entities that store them and the rules that
 * check them.
 */

export const ASSET_ORIGINS = ['manual', 'ingest'] as const;
export type AssetOrigin = (typeof ASSET_ORIGINS)[number];

/** Ids are UUIDs through the API; ingestion may supply its own, up to this length. */
export const MAX_ASSET_ID_LENGTH = 200;

/** The fields the asset list sorts by (its `sort`, `-` before one for descending). */
export const ASSET_SORT_FIELDS = [
  'name',
  'ip',
  'type',
  'vendor',
  'site',
  'risk_score',
  'createdAt',
  'updatedAt',
] as const;
export type AssetSortField = (typeof ASSET_SORT_FIELDS)[number];

export const SERVICE_PROTOCOLS = ['tcp', 'udp', 'sctp'] as const;
export type ServiceProtocol = (typeof SERVICE_PROTOCOLS)[number];

export enum RelationDirection {
  Bi = 'bi',
  Mono = 'mono',
}
