import type { AssetResponse } from './asset-response.dto.js';

export class AssetListResponse {
  assets: AssetResponse[];
  /** How many assets match the filters, whatever the page. */
  total: number;
}
