/**
 * The change records of what an ingestion creates, made by the database from the rows just
 * written (INSERT ... SELECT), as the API shows them (toAssetResponse, toRelationResponse: the
 * e2e tests compare both). Made there rather than in JavaScript, a first ingestion's hundred
 * thousand objects cost the main thread nothing (they took it about 3 s, as long as
 * the rest of the run's work there) and are never copied to the writer. What the run wrote
 * the same into every row it created (its time, its sightings, the one source) is given as
 * parameters: formatting four timestamps and reading the sources of each asset were over a
 * third of the statement's cost on SQLite.
 */

import type { IngestSql } from '../ingest-sql.js';

/** The record columns every statement writes, in this order. */
export const CHANGE_INSERT = `INSERT INTO changes (id, time, action, object_type, object_id, actor_user_id, actor_email, actor_api_key_id, actor_api_key_prefix, request_id, run_id, before, after)`;

// Each statement's parameters, in order: the ids' prefix, the counter before the first, the
// time, actor_user_id, actor_email, actor_api_key_id, actor_api_key_prefix, request_id, run_id,
// then createdValues (the run's time as the API shows it; for assets, their sightings' and
// their sources' JSON), then the ids of the rows (idParameters).

const SQLITE_ID = `? || printf('%012x', ? + ROW_NUMBER() OVER (ORDER BY x.rowid))`;
const POSTGRES_ID = `? || lpad(to_hex(CAST(? AS bigint) + ROW_NUMBER() OVER ()), 12, '0')`;

// The lists as JSONB, which json_object takes as it is (JSON text from a subquery is parsed again).
const SQLITE_ASSET = `json_object('id', x.id, 'name', x.name, 'ip', x.ip, 'type', x.type, 'vendor', x.vendor, 'model', x.model,
  'risk_score', x.risk_score, 'site', x.site, 'os_version', x.os_version, 'source', x.source,
  'vulnerabilities', (SELECT jsonb_group_array(json_object('id', v.id, 'score', v.score, 'summary', v.summary, 'publishedDate', v.published_date))
    FROM (SELECT * FROM vulnerabilities WHERE asset_id = x.id ORDER BY id) v),
  'services', (SELECT jsonb_group_array(json_object('port', s.port, 'protocol', s.protocol, 'name', s.name, 'product', s.product, 'version', s.version))
    FROM (SELECT * FROM services WHERE asset_id = x.id ORDER BY port, protocol) s),
  'origin', x.origin, 'sources', json(?), 'firstSeenAt', ?, 'lastSeenAt', ?, 'createdAt', ?, 'updatedAt', ?)`;

const POSTGRES_IDS = 'CAST(? AS text[])';

// The lists of the statement's assets, each table read once and grouped by asset (per asset
// subqueries cost more than the rest of the record's making). Each takes the ids' array.
const POSTGRES_LISTS = `
  LEFT JOIN (SELECT v.asset_id, json_agg(json_build_object('id', v.id, 'score', v.score, 'summary', v.summary, 'publishedDate', CAST(v.published_date AS TEXT)) ORDER BY v.id) AS list
    FROM vulnerabilities v WHERE v.asset_id = ANY(${POSTGRES_IDS}) GROUP BY v.asset_id) vl ON vl.asset_id = x.id
  LEFT JOIN (SELECT s.asset_id, json_agg(json_build_object('port', s.port, 'protocol', s.protocol, 'name', s.name, 'product', s.product, 'version', s.version) ORDER BY s.port, s.protocol) AS list
    FROM services s WHERE s.asset_id = ANY(${POSTGRES_IDS}) GROUP BY s.asset_id) sl ON sl.asset_id = x.id`;

const POSTGRES_ASSET = `json_build_object('id', x.id, 'name', x.name, 'ip', x.ip, 'type', x.type, 'vendor', x.vendor, 'model', x.model,
  'risk_score', x.risk_score, 'site', x.site, 'os_version', x.os_version, 'source', x.source,
  'vulnerabilities', COALESCE(vl.list, '[]'::json), 'services', COALESCE(sl.list, '[]'::json),
  'origin', x.origin, 'sources', CAST(? AS json), 'firstSeenAt', CAST(? AS text), 'lastSeenAt', CAST(? AS text),
  'createdAt', CAST(? AS text), 'updatedAt', CAST(? AS text))::text`;

const SQLITE_RELATION = `json_object('id', x.id, 'sourceAssetId', x.source_asset_id, 'targetAssetId', x.target_asset_id, 'type', x.type,
  'direction', x.direction, 'protocol', x.protocol, 'toPorts', x.to_ports, 'createdAt', ?, 'updatedAt', ?)`;

const POSTGRES_RELATION = `json_build_object('id', x.id, 'sourceAssetId', x.source_asset_id, 'targetAssetId', x.target_asset_id, 'type', x.type,
  'direction', x.direction, 'protocol', x.protocol, 'toPorts', x.to_ports,
  'createdAt', CAST(? AS text), 'updatedAt', CAST(? AS text))::text`;

/**
 * The statement recording the creation of the `table` rows whose ids are its last parameters
 * (`idParameters`).
 */
export function createdRecordsSql(
  dialect: IngestSql['dialect'],
  table: 'assets' | 'relations',
  count: number,
): string {
  const objectType = table === 'assets' ? 'asset' : 'relation';
  if (dialect === 'sqlite') {
    const json = table === 'assets' ? SQLITE_ASSET : SQLITE_RELATION;
    return `${CHANGE_INSERT} SELECT ${SQLITE_ID}, ?, 'create', '${objectType}', x.id,
    ?, ?, ?, ?, ?, ?, NULL, ${json}
    FROM ${table} x WHERE x.id IN (${new Array<string>(count).fill('?').join(', ')})`;
  }
  const json = table === 'assets' ? POSTGRES_ASSET : POSTGRES_RELATION;
  return `${CHANGE_INSERT} SELECT ${POSTGRES_ID}, CAST(? AS timestamptz), 'create', '${objectType}', x.id,
    ?, ?, ?, ?, ?, ?, NULL, ${json}
    FROM ${table} x${table === 'assets' ? POSTGRES_LISTS : ''} WHERE x.id = ANY(${POSTGRES_IDS})`;
}

/**
 * The parameters of createdRecordsSql before the ids: what the API shows of the values the run
 * wrote the same into each created row (PlanWriter): `now` as created and updated, the sightings
 * (`now` with a source, none without) and the sources (the payload's source, if any).
 */
export function createdValues(
  table: 'assets' | 'relations',
  now: string,
  source: string | null,
): unknown[] {
  if (table === 'relations') return [now, now];
  const seen = source === null ? null : now;
  return [JSON.stringify(source === null ? [] : [source]), seen, seen, now, now];
}

/**
 * The last parameters of createdRecordsSql: the ids, one each on SQLite, an array for each
 * part of the statement that reads them on PostgreSQL. Each part gets the array itself: one
 * array read through a subquery hides its length from the planner, whose plans for tables
 * still being loaded then took 300 to 480 ms a statement instead of 30 to 60.
 */
export function idParameters(
  dialect: IngestSql['dialect'],
  table: 'assets' | 'relations',
  ids: string[],
): unknown[] {
  if (dialect === 'sqlite') return ids;
  return new Array<string[]>(table === 'assets' ? 3 : 1).fill(ids);
}
