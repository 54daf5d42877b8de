import type { CsvColumn } from '../common/export/export-text.js';
import { ASSET_FIELDS } from '../database/tables/assets.table.js';
import { SPACED_LISTS } from '../common/field-rules/identity-values.js';
import type { AssetResponse } from './dto/asset-response.dto.js';
import type { ServiceResponse } from './dto/service-response.dto.js';

/**
 * A column of the assets' CSV. `ingested`: the CSV ingestion takes it (an asset field, or an
 * identity list or the tags, with their values separated by spaces);
 * otherwise the export writes it and the ingestion ignores it (what the store keeps itself).
 */
export interface AssetCsvColumn extends CsvColumn<AssetResponse> {
  readonly ingested: boolean;
}

const spaced = (values: readonly string[]): string => values.join(' ');
const serviceEntry = ({ port, protocol, name }: ServiceResponse): string =>
  name === null ? `${port}/${protocol}` : `${port}/${protocol}/${name}`;

/**
 * The assets' CSV, in its order: the columns the CSV ingestion takes, then those only the export
 * writes. The one list of both: the export's header and cells, the ingestion's header check.
 */
export const ASSET_CSV_COLUMNS: readonly AssetCsvColumn[] = [
  { name: 'id', ingested: true, cell: (asset) => asset.id },
  ...ASSET_FIELDS.map((field): AssetCsvColumn => ({
    name: field,
    ingested: true,
    cell: (asset) => asset[field],
  })),
  ...SPACED_LISTS.map((list): AssetCsvColumn => ({
    name: list,
    ingested: true,
    cell: (asset) => spaced(asset[list]),
  })),
  { name: 'services', ingested: false, cell: (asset) => spaced(asset.services.map(serviceEntry)) },
  { name: 'sources', ingested: false, cell: (asset) => spaced(asset.sources) },
  { name: 'origin', ingested: false, cell: (asset) => asset.origin },
  { name: 'firstSeenAt', ingested: false, cell: (asset) => asset.firstSeenAt },
  { name: 'lastSeenAt', ingested: false, cell: (asset) => asset.lastSeenAt },
  { name: 'createdAt', ingested: false, cell: (asset) => asset.createdAt },
  { name: 'updatedAt', ingested: false, cell: (asset) => asset.updatedAt },
];
