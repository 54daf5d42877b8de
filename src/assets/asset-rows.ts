// The rows the data layer reads of an asset and its lists, named where the API's mappers and
// the ingestion's plans take them; each is derived from its table (src/database/tables/).
export type { AssetRow, StoredAssetRow } from '../database/tables/assets.table.js';
export type { AssetSourceRow } from '../database/tables/asset-sources.table.js';
export type { ServiceRow } from '../database/tables/services.table.js';
export type { VulnerabilityRow } from '../database/tables/vulnerabilities.table.js';
