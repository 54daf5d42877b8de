import type { Dialect, JsonEntry } from '../dialect/dialect.js';
import type { InsertColumn } from '../ingest-sql.js';
import { LISTED_STATUSES } from '../repositories/assets/asset-selects.js';
import { ASSET_FIELDS } from '../tables/assets.table.js';
import { RELATION_COLUMNS } from '../tables/relations.table.js';
import { SERVICE_COLUMNS } from '../tables/services.table.js';

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

export type CreatedObjectType = 'asset' | 'relation' | 'finding';

/**
 * The entries of an asset's list as the API shows them (its response DTOs name them as the
 * entity's properties): every column but the asset's id, a date as its text.
 */
const listedFields = (
  columns: Readonly<Record<string, InsertColumn>>,
  dialect: Dialect,
): [string, string][] =>
  Object.entries(columns)
    .filter(([property]) => property !== 'assetId')
    .map(([property, { name, type }]) => [
      property,
      type === 'date' ? dialect.dateText(name) : name,
    ]);

/**
 * The findings an asset `x` lists as its vulnerabilities: the open and accepted ones, their
 * columns named as the API names them (the lists order by a key of their entries).
 */
const LISTED_FINDINGS = `FROM (SELECT asset_id, vuln_id AS id, score, summary, published_date, status FROM findings) l WHERE l.asset_id = x.id AND l.${LISTED_STATUSES}`;

/** An asset's row `x` as the API shows it as created (toAssetResponse). */
const assetAsCreated = (dialect: Dialect): JsonEntry[] => [
  // The API names these fields as their columns.
  ...['id', ...ASSET_FIELDS].map((column): JsonEntry => [column, `x.${column}`]),
  ['addresses', dialect.spacedListJson('x.addresses')],
  ['macAddresses', dialect.spacedListJson('x.mac_addresses')],
  ['hostnames', dialect.spacedListJson('x.hostnames')],
  ['tags', dialect.spacedListJson('x.tags')],
  ['source', 'x.source'],
  [
    'vulnerabilities',
    {
      from: LISTED_FINDINGS,
      orderBy: ['id'],
      fields: [
        ['id', 'id'],
        ['score', 'score'],
        ['summary', 'summary'],
        ['publishedDate', dialect.dateText('published_date')],
      ],
    },
  ],
  [
    'services',
    {
      from: 'FROM services WHERE asset_id = x.id',
      orderBy: ['port', 'protocol'],
      fields: listedFields(SERVICE_COLUMNS, dialect),
    },
  ],
  ['origin', 'x.origin'],
  [
    'sources',
    { from: 'FROM asset_sources WHERE asset_id = x.id', orderBy: ['position'], fields: 'source' },
  ],
  ['firstSeenAt', dialect.isoTimestamp('x.first_seen_at')],
  ['lastSeenAt', dialect.isoTimestamp('x.first_seen_at')],
  ['createdAt', dialect.isoTimestamp('x.created_at')],
  ['updatedAt', dialect.isoTimestamp('x.created_at')],
];

/** A relation's row `x` as the API shows it as created (toRelationResponse). */
const relationAsCreated = (dialect: Dialect): JsonEntry[] =>
  Object.entries(RELATION_COLUMNS).map(([property, { name, type }]): JsonEntry => [
    property,
    // As created, it was last updated when it was created.
    type === 'timestamptz' ? dialect.isoTimestamp('x.created_at') : `x.${name}`,
  ]);

/**
 * A finding's row `x` as its records show it as created (toFindingRecord): open, seen once,
 * never fixed, reopened or triaged.
 */
const findingAsCreated = (dialect: Dialect): JsonEntry[] => [
  ['id', 'x.id'],
  ['assetId', 'x.asset_id'],
  ['vulnId', 'x.vuln_id'],
  ['score', 'x.score'],
  ['severity', 'x.severity'],
  ['summary', 'x.summary'],
  ['publishedDate', dialect.dateText('x.published_date')],
  ['status', "'open'"],
  [
    'sources',
    {
      from: 'FROM finding_sources WHERE finding_id = x.id',
      orderBy: ['position'],
      fields: 'source',
    },
  ],
  ['firstSeenAt', dialect.isoTimestamp('x.first_seen_at')],
  ['lastSeenAt', dialect.isoTimestamp('x.first_seen_at')],
  ['fixedAt', 'NULL'],
  ['reopenedAt', 'NULL'],
  ['reopenCount', '0'],
  ['reason', 'NULL'],
  ['acceptedUntil', 'NULL'],
  ['triagedBy', 'NULL'],
];

const CREATED_TABLES: Record<
  CreatedObjectType,
  [table: string, entries: (dialect: Dialect) => JsonEntry[]]
> = {
  asset: ['assets', assetAsCreated],
  relation: ['relations', relationAsCreated],
  finding: ['findings', findingAsCreated],
};

/** The object of `objectType` whose id is `idColumn`, as created: JSON text, NULL if none. */
function asCreated(dialect: Dialect, objectType: CreatedObjectType, idColumn: string): string {
  const [table, entries] = CREATED_TABLES[objectType];
  return dialect.jsonObject(entries(dialect), `FROM ${table} x WHERE x.id = ${idColumn}`);
}

/**
 * The `after` column of the changes aliased `alias`, a creation without its copy read from its
 * object's row.
 */
export function afterColumn(dialect: Dialect, alias: string): string {
  const objectId = `${alias}.object_id`;
  return `CASE WHEN ${alias}.after IS NULL AND ${alias}.action = 'create' THEN CASE ${alias}.object_type
    WHEN 'asset' THEN ${asCreated(dialect, 'asset', objectId)}
    WHEN 'relation' THEN ${asCreated(dialect, 'relation', objectId)}
    WHEN 'finding' THEN ${asCreated(dialect, 'finding', objectId)} END
  ELSE ${alias}.after END AS after`;
}

/**
 * Gives the creation records without a copy of the `objectType` objects whose ids match
 * `objectIds` (SQL, e.g. `IN (?, ?)`) their copy, from the rows as they are: run before a write
 * changes or deletes those rows, in its transaction.
 */
export function keepCreationsSql(
  dialect: Dialect,
  objectType: CreatedObjectType,
  objectIds: string,
): string {
  return `UPDATE changes SET after = ${asCreated(dialect, objectType, 'changes.object_id')}
    WHERE object_type = '${objectType}' AND object_id ${objectIds} AND action = 'create' AND after IS NULL`;
}

/** keepCreationsSql's `objectIds` for the findings of the assets `assetIds` matches. */
export const findingsOfAssets = (assetIds: string) =>
  `IN (SELECT id FROM findings WHERE asset_id ${assetIds})`;

/** keepCreationsSql's `objectIds` for the relations from or to the assets `assetIds` match. */
export const relationsOfAssets = (assetIds: string) =>
  `IN (SELECT id FROM relations WHERE source_asset_id ${assetIds} OR target_asset_id ${assetIds})`;
