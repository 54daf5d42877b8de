import {
  ASSET_SOURCE_COLUMNS,
  ASSET_SOURCE_INSERT_COLUMNS,
} from '../../tables/asset-sources.table.js';
import { ASSET_FIELDS, LIST_COLUMNS } from '../../tables/assets.table.js';
import { selectList } from '../../tables/column-table.js';
import { SERVICE_INSERT_COLUMNS } from '../../tables/services.table.js';

// The reads of an asset's lists, written once for every path that reads them (the API's, the
// ingestion's lookups and its change records), each completed by its caller's WHERE.

/**
 * The findings an asset lists as its `vulnerabilities`: the open and accepted ones, written as
 * the other two statuses left out, a condition no index serves, so that the planner reads an
 * asset's findings through the (asset_id, vuln_id) index. Given as `status IN (...)`, SQLite
 * with statistics read every open finding through the (status, severity) index for each page.
 */
export const LISTED_STATUSES = "status NOT IN ('fixed', 'false_positive')";

/**
 * An asset's `vulnerabilities` (VulnerabilityRow): its listed findings, the date as its text.
 * A derived table, so that each caller's WHERE and ORDER BY name the API's columns; both
 * databases flatten it.
 */
export const VULNERABILITIES_SELECT = `SELECT * FROM (SELECT asset_id, vuln_id AS id, score, summary, CAST(published_date AS TEXT) AS published_date FROM findings WHERE ${LISTED_STATUSES}) v`;

/** Every column of an asset's services. */
export const SERVICES_SELECT = `SELECT ${selectList(SERVICE_INSERT_COLUMNS)} FROM services`;

/** An asset's `sources`, as the API reads them (in position order). */
export const SOURCES_SELECT = `SELECT ${selectList([ASSET_SOURCE_COLUMNS.assetId, ASSET_SOURCE_COLUMNS.source])} FROM asset_sources`;

/** An asset's `sources` with their positions. */
export const POSITIONED_SOURCES_SELECT = `SELECT ${selectList(ASSET_SOURCE_INSERT_COLUMNS)} FROM asset_sources`;

/** The columns of an asset's row as a merge matches it, with whether a source has named it (`seen`). */
const MATCHED_COLUMNS = `id, ${[...ASSET_FIELDS, ...LIST_COLUMNS].join(', ')}, source, CASE WHEN first_seen_at IS NULL THEN 0 ELSE 1 END AS seen`;

/** An asset's row as a merge matches it. */
export const MATCHED_ASSETS_SELECT = `SELECT ${MATCHED_COLUMNS} FROM assets`;

/**
 * The rows of the assets holding identifiers of `kind` (a constant), as a merge matches them,
 * with the identifier (`i.value`, the caller's WHERE) and their creation time.
 */
export const identifiedAssetsSelect = (kind: string) =>
  `SELECT ${MATCHED_COLUMNS}, created_at, i.value AS identifier FROM asset_identifiers i JOIN assets ON assets.id = i.asset_id AND i.kind = '${kind}'`;

/** The rows of the assets merged ids were merged into, with the merged id (`alias`). */
export const ALIASED_ASSETS_SELECT = `SELECT ${MATCHED_COLUMNS}, al.alias_id AS alias FROM asset_aliases al JOIN assets ON assets.id = al.asset_id`;
