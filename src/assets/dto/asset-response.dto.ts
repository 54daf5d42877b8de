import type { Asset } from '../asset.entity.js';
import type { Vulnerability } from '../vulnerability.entity.js';
import {
  toVulnerabilityResponse,
  type VulnerabilityResponse,
} from './vulnerability-response.dto.js';

export class AssetResponse {
  id: string;
  name: string;
  ip: string | null;
  type: string | null;
  vendor: string | null;
  model: string | null;
  risk_score: number | null;
  site: string | null;
  os_version: string | null;
  source: string | null;
  vulnerabilities: VulnerabilityResponse[];
  createdAt: string;
  updatedAt: string;
}

export function toAssetResponse(asset: Asset, vulnerabilities: Vulnerability[]): AssetResponse {
  return {
    id: asset.id,
    name: asset.name,
    ip: asset.ip,
    type: asset.type,
    vendor: asset.vendor,
    model: asset.model,
    risk_score: asset.riskScore,
    site: asset.site,
    os_version: asset.osVersion,
    source: asset.source,
    vulnerabilities: vulnerabilities.map(toVulnerabilityResponse),
    createdAt: asset.createdAt.toISOString(),
    updatedAt: asset.updatedAt.toISOString(),
  };
}
