import type { AssetRow } from '../../assets/asset-rows.js';
import type { IngestAsset } from '../ingest-payload.js';
import type { PlanContext } from './ingest-plan.js';

/** A plan context whose new ids count up: new-1, new-2, ... */
export function testContext(source: string | null = null): PlanContext {
  let next = 0;
  return { source, newId: () => `new-${++next}` };
}

export function storedAsset(id: string, fields: Partial<AssetRow> = {}): AssetRow {
  return {
    id,
    name: id,
    ip: null,
    type: null,
    vendor: null,
    model: null,
    risk_score: null,
    site: null,
    os_version: null,
    source: null,
    ...fields,
  };
}

export function item(index: number, rest: Omit<IngestAsset, 'index'>): IngestAsset {
  return { index, ...rest };
}
