/**
 * The creations an ingestion records keep no copy of their object (`after` NULL): a hundred
 * thousand copies were most of what a first ingestion's history cost. Until its first recorded
 * change the object is as it was created, but for what moves unrecorded (`updatedAt` and
 * `lastSeenAt`, which then equal `createdAt` and `firstSeenAt`). So a record without its copy
 * shows the object's row read that way, and every write that changes or deletes an asset or a
 * relation first gives its creation record that copy, made from the row before the write
 * (keepCreationsSql). Both are made here by the database, as the API shows the object
 * (toAssetResponse, toRelationResponse: the e2e tests compare them).
 */

export type SqlDialect = 'sqlite' | 'postgres';
export type CreatedObjectType = 'asset' | 'relation';

/** A timestamp column as the API shows it (toISOString), NULL as null. */
const iso = (dialect: SqlDialect, column: string) =>
  dialect === 'sqlite'
    ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${column})`
    : `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// On SQLite the lists are JSONB, which json_object takes as it is (JSON text from a subquery
// would be taken as a string).
const SQLITE_ASSET = `json_object('id', x.id, 'name', x.name, 'ip', x.ip, 'type', x.type, 'vendor', x.vendor, 'model', x.model,
  'risk_score', x.risk_score, 'site', x.site, 'os_version', x.os_version, 'source', x.source,
  'vulnerabilities', (SELECT jsonb_group_array(json_object('id', v.id, 'score', v.score, 'summary', v.summary, 'publishedDate', v.published_date))
    FROM (SELECT * FROM vulnerabilities WHERE asset_id = x.id ORDER BY id) v),
  'services', (SELECT jsonb_group_array(json_object('port', s.port, 'protocol', s.protocol, 'name', s.name, 'product', s.product, 'version', s.version))
    FROM (SELECT * FROM services WHERE asset_id = x.id ORDER BY port, protocol) s),
  'origin', x.origin,
  'sources', (SELECT jsonb_group_array(s.source) FROM (SELECT source FROM asset_sources WHERE asset_id = x.id ORDER BY position) s),
  'firstSeenAt', ${iso('sqlite', 'x.first_seen_at')}, 'lastSeenAt', ${iso('sqlite', 'x.first_seen_at')},
  'createdAt', ${iso('sqlite', 'x.created_at')}, 'updatedAt', ${iso('sqlite', 'x.created_at')})`;

// On PostgreSQL the columns of a row made JSON by row_to_json, and lists by array_to_json:
// both write compact JSON, as the API does (json_build_object and json_agg add spaces).
const list = (rows: string) => `COALESCE((${rows}), '[]')`;
const POSTGRES_ASSET = `x.id, x.name, x.ip, x.type, x.vendor, x.model, x.risk_score, x.site, x.os_version, x.source,
  ${list(`SELECT array_to_json(array_agg(row_to_json(v) ORDER BY v.id))
    FROM (SELECT id, score, summary, CAST(published_date AS TEXT) AS "publishedDate" FROM vulnerabilities WHERE asset_id = x.id) v`)} AS vulnerabilities,
  ${list(`SELECT array_to_json(array_agg(row_to_json(s) ORDER BY s.port, s.protocol))
    FROM (SELECT port, protocol, name, product, version FROM services WHERE asset_id = x.id) s`)} AS services,
  x.origin,
  ${list('SELECT array_to_json(array_agg(s.source ORDER BY s.position)) FROM asset_sources s WHERE s.asset_id = x.id')} AS sources,
  ${iso('postgres', 'x.first_seen_at')} AS "firstSeenAt", ${iso('postgres', 'x.first_seen_at')} AS "lastSeenAt",
  ${iso('postgres', 'x.created_at')} AS "createdAt", ${iso('postgres', 'x.created_at')} AS "updatedAt"`;

const SQLITE_RELATION = `json_object('id', x.id, 'sourceAssetId', x.source_asset_id, 'targetAssetId', x.target_asset_id, 'type', x.type,
  'direction', x.direction, 'protocol', x.protocol, 'toPorts', x.to_ports,
  'createdAt', ${iso('sqlite', 'x.created_at')}, 'updatedAt', ${iso('sqlite', 'x.created_at')})`;

const POSTGRES_RELATION = `x.id, x.source_asset_id AS "sourceAssetId", x.target_asset_id AS "targetAssetId", x.type,
  x.direction, x.protocol, x.to_ports AS "toPorts",
  ${iso('postgres', 'x.created_at')} AS "createdAt", ${iso('postgres', 'x.created_at')} AS "updatedAt"`;

/** The object of `objectType` whose id is `idColumn`, as created: JSON text, NULL if none. */
function asCreated(dialect: SqlDialect, objectType: CreatedObjectType, idColumn: string): string {
  const table = objectType === 'asset' ? 'assets' : 'relations';
  if (dialect === 'sqlite') {
    const json = objectType === 'asset' ? SQLITE_ASSET : SQLITE_RELATION;
    return `(SELECT ${json} FROM ${table} x WHERE x.id = ${idColumn})`;
  }
  const columns = objectType === 'asset' ? POSTGRES_ASSET : POSTGRES_RELATION;
  return `(SELECT row_to_json(a)::text FROM (SELECT ${columns} FROM ${table} x WHERE x.id = ${idColumn}) a)`;
}

/**
 * The `after` column of the changes aliased `alias`, a creation without its copy read from its
 * object's row.
 */
export function afterColumn(dialect: SqlDialect, alias: string): string {
  const objectId = `${alias}.object_id`;
  return `CASE WHEN ${alias}.after IS NULL AND ${alias}.action = 'create' THEN CASE ${alias}.object_type
    WHEN 'asset' THEN ${asCreated(dialect, 'asset', objectId)}
    WHEN 'relation' THEN ${asCreated(dialect, 'relation', objectId)} END
  ELSE ${alias}.after END AS after`;
}

/**
 * Gives the creation records without a copy of the `objectType` objects whose ids match
 * `objectIds` (SQL, e.g. `IN (?, ?)`) their copy, from the rows as they are: run before a write
 * changes or deletes those rows, in its transaction.
 */
export function keepCreationsSql(
  dialect: SqlDialect,
  objectType: CreatedObjectType,
  objectIds: string,
): string {
  return `UPDATE changes SET after = ${asCreated(dialect, objectType, 'changes.object_id')}
    WHERE object_type = '${objectType}' AND object_id ${objectIds} AND action = 'create' AND after IS NULL`;
}

/** keepCreationsSql's `objectIds` for the relations from or to the assets `assetIds` match. */
export const relationsOfAssets = (assetIds: string) =>
  `IN (SELECT id FROM relations WHERE source_asset_id ${assetIds} OR target_asset_id ${assetIds})`;
