import type { AssetsWithLists } from '../database/repositories/assets.repository.js';
import { toAssetResponse, type AssetResponse } from './dto/asset-response.dto.js';
import { toServiceResponse } from './dto/service-response.dto.js';
import { toVulnerabilityResponse } from './dto/vulnerability-response.dto.js';
import { groupByAsset } from './group-by-asset.js';

/** The answers for stored rows and their lists, in the rows' order. */
export function assetResponses({ rows, ...lists }: AssetsWithLists): AssetResponse[] {
  const vulnerabilities = groupByAsset(lists.vulnerabilities, toVulnerabilityResponse);
  const services = groupByAsset(lists.services, toServiceResponse);
  const sources = groupByAsset(lists.sources, (row) => row.source);
  return rows.map((row) =>
    toAssetResponse(row, {
      vulnerabilities: vulnerabilities.get(row.id) ?? [],
      services: services.get(row.id) ?? [],
      sources: sources.get(row.id) ?? [],
    }),
  );
}
