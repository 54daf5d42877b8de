/** Rows of several assets grouped by asset id, in their order (each mapped by `map`, if given). */
export function groupByAsset<R extends { asset_id: string }>(rows: readonly R[]): Map<string, R[]>;
export function groupByAsset<R extends { asset_id: string }, T>(
  rows: readonly R[],
  map: (row: R) => T,
): Map<string, T[]>;
export function groupByAsset<R extends { asset_id: string }, T>(
  rows: readonly R[],
  map?: (row: R) => T,
): Map<string, (R | T)[]> {
  const byAsset = new Map<string, (R | T)[]>();
  for (const row of rows) {
    const value = map ? map(row) : row;
    const list = byAsset.get(row.asset_id);
    if (list) list.push(value);
    else byAsset.set(row.asset_id, [value]);
  }
  return byAsset;
}
