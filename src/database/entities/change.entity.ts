import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { MAX_ASSET_ID_LENGTH } from '../../common/field-rules/inventory-values.js';

export type ChangeAction = 'create' | 'update' | 'delete';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['create', 'update', 'delete'];

export type ChangeObjectType = 'asset' | 'relation' | 'diagram' | 'user' | 'apiKey' | 'finding';
export const CHANGE_OBJECT_TYPES: readonly ChangeObjectType[] = [
  'asset',
  'relation',
  'diagram',
  'user',
  'apiKey',
  'finding',
];

/**
 * One write to one object, recorded in the write's own transaction. Ids are UUIDv7s of the
 * record's time (record-ids.ts): the primary key serves the whole list newest first, the
 * since/until filters and the retention delete.
 */
@Entity('changes')
// An object's history, newest first (GET /api/assets/:id/changes, the objectId filter).
@Index(['objectType', 'objectId', 'id'])
// The actorId and runId filters, through the change sets those name.
@Index(['changeSetId'])
export class Change {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: Date })
  time: Date;

  @Column({ type: 'varchar', length: 8 })
  action: ChangeAction;

  @Column({ name: 'object_type', type: 'varchar', length: 16 })
  objectType: ChangeObjectType;

  // Asset ids are the longest the API takes.
  @Column({ name: 'object_id', type: 'varchar', length: MAX_ASSET_ID_LENGTH })
  objectId: string;

  /**
   * The write's origin: actor, request and run (change-set.entity.ts). No foreign key:
   * PostgreSQL checks one row by row, a large share of an ingestion's writes. The set is written
   * before its records, in their transaction, and the retention removes it only once no record
   * names it.
   */
  @Column({ name: 'change_set_id', type: 'integer' })
  changeSetId: number;

  /** The object as the API showed it (JSON); only the changed fields for an update. */
  @Column({ type: 'text', nullable: true })
  before: string | null;

  /** NULL for a creation an ingestion recorded until its object changes (creation-sql.ts). */
  @Column({ type: 'text', nullable: true })
  after: string | null;
}

/**
 * A record as the lists read it, with its change set's columns, each row an array in this
 * order (the lists' COLUMNS): `time` is UTC text on SQLite, a Date on PostgreSQL.
 */
export type ChangeRow = [
  id: string,
  time: Date | string,
  action: ChangeAction,
  objectType: ChangeObjectType,
  objectId: string,
  actorUserId: string,
  actorEmail: string,
  actorApiKeyId: string | null,
  actorApiKeyPrefix: string | null,
  requestId: string,
  runId: string | null,
  before: string | null,
  after: string | null,
];
