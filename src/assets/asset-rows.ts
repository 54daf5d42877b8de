import type { AssetOrigin, ServiceProtocol } from '../common/field-rules/inventory-values.js';
import type { AssetFieldValues } from '../database/tables/assets.table.js';

/** An assets row as raw SQL returns it (the list and ingestion read without TypeORM). */
export interface AssetRow extends AssetFieldValues {
  id: string;
  source: string | null;
}

/** A vulnerabilities row, its date read as text ('YYYY-MM-DD'). */
export interface VulnerabilityRow {
  asset_id: string;
  id: string;
  score: number | null;
  summary: string | null;
  published_date: string | null;
}

/** A services row. */
export interface ServiceRow {
  asset_id: string;
  port: number;
  protocol: ServiceProtocol;
  name: string | null;
  product: string | null;
  version: string | null;
}

/** An assets row with its timestamps: UTC text from SQLite, Dates from PostgreSQL. */
export interface StoredAssetRow extends AssetRow {
  origin: AssetOrigin;
  first_seen_at: Date | string | null;
  last_seen_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** An asset_sources row, as the list reads it. */
export interface AssetSourceRow {
  asset_id: string;
  source: string;
}
