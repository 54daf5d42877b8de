import type { Dialect } from '../../dialect/dialect.js';
import { changeSetOf, type ChangeInput, type ChangeOrigin } from '../../history/change-origin.js';
import {
  findingsOfAssets,
  keepCreationsSql,
  relationsOfAssets,
  type CreatedObjectType,
} from '../../history/creation-sql.js';
import { RecordIds } from '../../history/record-ids.js';
import { placeholders, type IngestSql } from '../../ingest-sql.js';
import {
  CHANGE_SET_INSERT_COLUMNS,
  CHANGE_SET_ORIGIN_COLUMNS,
} from '../../tables/change-sets.table.js';
import { CHANGE_INSERT_COLUMNS } from '../../tables/changes.table.js';
import { boundValue, rowValues } from '../../tables/column-table.js';

/** The record columns every creation statement writes (Dialect.createdRecordsSelect), in the table's order. */
const CHANGE_INSERT = `INSERT INTO changes (${CHANGE_INSERT_COLUMNS.map(({ name }) => name).join(', ')})`;

/** The run's change set: its origin (actor, request id, run id). */
const CHANGE_SET_INSERT = `INSERT INTO change_sets (${CHANGE_SET_INSERT_COLUMNS.map(({ name }) => name).join(', ')}) VALUES (${placeholders(CHANGE_SET_INSERT_COLUMNS)}) RETURNING id`;

/**
 * The statement recording the creation of the `table` rows whose ids are its last parameters
 * (Dialect.createdRecordsSelect says the parameters): made by the database from the ids of the
 * rows just written (INSERT ... SELECT), without a copy of the object (`after` NULL: it is read
 * from its row until its first recorded change, creation-sql.ts).
 */
/** The tables whose new rows an ingestion records, and the object each row is. */
export type CreatedTable = 'assets' | 'relations' | 'findings';
const CREATED_OBJECTS: Record<CreatedTable, CreatedObjectType> = {
  assets: 'asset',
  relations: 'relation',
  findings: 'finding',
};

function createdRecordsSql(dialect: Dialect, table: CreatedTable, count: number): string {
  const objectType = CREATED_OBJECTS[table];
  return `${CHANGE_INSERT} ${dialect.createdRecordsSelect(objectType, table, count)}`;
}

/**
 * An ingestion's writes of change records, in its transaction: its change set, the records of
 * what it creates (made by the database), updates and deletes (with bulk inserts), and the
 * copies creation records get before their objects change. Record ids are the run's
 * (RecordIds of its time).
 */
export class ChangeIngestWrites {
  private readonly time: unknown;
  private readonly ids: RecordIds;

  /** `now`: the run's time, every record's. */
  constructor(
    private readonly sql: IngestSql,
    now: Date,
  ) {
    this.time = sql.timestamp(now);
    this.ids = new RecordIds(now);
  }

  /** Writes the run's change set (actor, request and run); answers its id. */
  async changeSet(origin: ChangeOrigin): Promise<number> {
    const values = rowValues(CHANGE_SET_ORIGIN_COLUMNS, changeSetOf(origin), (column, value) =>
      boundValue(this.sql, column, value),
    );
    const [row] = await this.sql.all<{ id: number | string }>(CHANGE_SET_INSERT, values);
    return Number(row.id);
  }

  /** The creation of `table`'s rows `ids` (at most idsPerStatement), just written, recorded. */
  async created(table: CreatedTable, ids: readonly string[], changeSetId: number): Promise<void> {
    const { sql } = this;
    await sql.runQueued(createdRecordsSql(sql.dialect, table, ids.length), [
      this.ids.prefix,
      // ROW_NUMBER counts from 1.
      this.ids.reserve(ids.length) - 1,
      this.time,
      changeSetId,
      ...sql.dialect.idListValues(ids),
    ]);
  }

  /**
   * Objects about to be changed (at most idsPerStatement): their creation records kept without
   * a copy get one, made from their rows before the write (creation-sql.ts).
   */
  async keepCreations(objectType: CreatedObjectType, ids: string[]): Promise<void> {
    await this.sql.runQueued(
      keepCreationsSql(this.sql.dialect, objectType, `IN (${placeholders(ids)})`),
      ids,
    );
  }

  /** keepCreations for the findings of these assets (at most idsPerStatement). */
  async keepFindingCreationsOf(assetIds: string[]): Promise<void> {
    await this.sql.runQueued(
      keepCreationsSql(
        this.sql.dialect,
        'finding',
        findingsOfAssets(`IN (${placeholders(assetIds)})`),
      ),
      assetIds,
    );
  }

  /** keepCreations for the relations to or from these assets (at most idsPerStatement). */
  async keepRelationCreationsOf(assetIds: string[]): Promise<void> {
    await this.sql.runQueued(
      keepCreationsSql(
        this.sql.dialect,
        'relation',
        relationsOfAssets(`IN (${placeholders(assetIds)})`),
      ),
      [...assetIds, ...assetIds],
    );
  }

  /** Writes these records, each with the next id and its JSON made now. */
  async insert(inputs: readonly ChangeInput[], changeSetId: number): Promise<void> {
    const { time } = this;
    const rows = inputs.map((input) => [
      this.ids.next(),
      time,
      input.action,
      input.objectType,
      input.objectId,
      changeSetId,
      input.before === null ? null : JSON.stringify(input.before),
      input.after === null ? null : JSON.stringify(input.after),
    ]);
    await this.sql.insert('changes', CHANGE_INSERT_COLUMNS, rows);
  }
}
