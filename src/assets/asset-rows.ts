/** An assets row as raw SQL returns it (the list and ingestion read without TypeORM). */
export interface AssetRow {
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
}

/** A vulnerabilities row, its date read as text ('YYYY-MM-DD'). */
export interface VulnerabilityRow {
  asset_id: string;
  id: string;
  score: number | null;
  summary: string | null;
  published_date: string | null;
}
