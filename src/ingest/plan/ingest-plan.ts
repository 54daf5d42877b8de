/** What each stage's plan adds to the answer's stats. */
export interface IngestCounts {
  assetsCreated: number;
  assetsUpdated: number;
  assetsDeleted: number;
  relationsCreated: number;
  relationsUpdated: number;
  relationsDeleted: number;
  vulnerabilities: number;
}

export function noCounts(): IngestCounts {
  return {
    assetsCreated: 0,
    assetsUpdated: 0,
    assetsDeleted: 0,
    relationsCreated: 0,
    relationsUpdated: 0,
    relationsDeleted: 0,
    vulnerabilities: 0,
  };
}

export function addCounts(total: IngestCounts, more: Partial<IngestCounts>): void {
  for (const [key, value] of Object.entries(more) as [keyof IngestCounts, number][]) {
    total[key] += value;
  }
}

/** What every plan of one ingestion shares. */
export interface PlanContext {
  /** The payload's source: written on every asset it creates or matches, when not null. */
  source: string | null;
  /** The id of a new row (passed in, so that tests are deterministic). */
  newId: () => string;
}

/** A relations row as the plan reads and writes it. */
export interface RelationRow {
  id: string;
  source_asset_id: string;
  target_asset_id: string;
  type: string;
  direction: string;
  protocol: string | null;
  to_ports: string | null;
}
