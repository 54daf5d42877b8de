import {
  assetResponse,
  toAssetResponse,
  type AssetLife,
  type AssetResponse,
} from '../../assets/dto/asset-response.dto.js';
import { toServiceResponse } from '../../assets/dto/service-response.dto.js';
import { toVulnerabilityResponse } from '../../assets/dto/vulnerability-response.dto.js';
import { groupByAsset } from '../../assets/group-by-asset.js';
import type { AssetStoredRows } from '../../database/repositories/assets/asset-stored-rows.js';
import type { AssetRow } from '../../database/tables/assets.table.js';
import type { IngestService, IngestVulnerability } from '../ingest-payload.js';
import type { AssetPlan } from '../plan/plan-assets.js';

// The lists in the order the API shows them (assets.service's reads).
export const byVulnerabilityId = (a: { id: string }, b: { id: string }) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
export const byPortProtocol = (
  a: Pick<IngestService, 'port' | 'protocol'>,
  b: Pick<IngestService, 'port' | 'protocol'>,
) => a.port - b.port || (a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : 0);

export const vulnerabilityList = (list: readonly IngestVulnerability[] | undefined) =>
  [...(list ?? [])].sort(byVulnerabilityId).map((item) => ({
    id: item.id,
    score: item.score,
    summary: item.summary,
    publishedDate: item.publishedDate,
  }));
export const serviceList = (list: readonly IngestService[] | undefined) =>
  [...(list ?? [])].sort(byPortProtocol).map((item) => ({
    port: item.port,
    protocol: item.protocol,
    name: item.name,
    product: item.product,
    version: item.version,
  }));

/** These stored assets as the API shows them, read through `rows` (in the transaction). */
export async function shownAssets(
  rows: AssetStoredRows,
  ids: readonly string[],
): Promise<AssetResponse[]> {
  const assets = await rows.rows(ids);
  const [vulnerabilities, services, sources] = await Promise.all([
    rows.vulnerabilities(ids),
    rows.services(ids),
    rows.unorderedSources(ids),
  ]);
  const vulnerabilitiesOf = groupByAsset(
    vulnerabilities.sort(byVulnerabilityId),
    toVulnerabilityResponse,
  );
  const servicesOf = groupByAsset(services.sort(byPortProtocol), toServiceResponse);
  const sourcesOf = groupByAsset(
    sources.sort((a, b) => a.position - b.position),
    (entry) => entry.source,
  );
  return assets.map((row) =>
    toAssetResponse(row, {
      vulnerabilities: vulnerabilitiesOf.get(row.id) ?? [],
      services: servicesOf.get(row.id) ?? [],
      sources: sourcesOf.get(row.id) ?? [],
    }),
  );
}

/**
 * The assets an ingestion creates at `now`, as the API shows each once written, from its plan
 * (as AssetIngestWrites writes it): they share one life.
 */
export function createdAssets(
  source: string | null,
  now: Date,
): (row: AssetRow, plan: AssetPlan) => AssetResponse {
  const at = now.toISOString();
  const seen = source === null ? null : at;
  const life: AssetLife = {
    origin: 'ingest',
    firstSeenAt: seen,
    lastSeenAt: seen,
    createdAt: at,
    updatedAt: at,
  };
  const sources = source === null ? [] : [source];
  return (row, plan) =>
    assetResponse(
      row,
      {
        vulnerabilities: vulnerabilityList(plan.vulnerabilityLists.get(row.id)),
        services: serviceList(plan.serviceLists.get(row.id)),
        sources: [...sources],
      },
      life,
    );
}
