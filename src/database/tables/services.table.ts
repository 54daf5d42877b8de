import type { ServiceValues } from '../../common/field-rules/service-list.js';
import type { Service } from '../entities/service.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, text, type RowOf } from './column-table.js';

/**
 * The services table: the column of each property of the entity (its relation to the asset
 * aside), in the table's order, typed as bulk inserts type it. The compiler holds it to the
 * entity. The inserts, the selects and the row type are derived from it.
 */
export const SERVICE_COLUMNS = {
  assetId: text('asset_id'),
  port: integer('port'),
  protocol: text('protocol'),
  name: text('name'),
  product: text('product'),
  version: text('version'),
} as const satisfies { [P in Exclude<keyof Service, 'asset'>]-?: InsertColumn };

/** Every column, in the table's order: what an insert of a whole row writes. */
export const SERVICE_INSERT_COLUMNS: InsertColumn[] = Object.values(SERVICE_COLUMNS);

/** A services row, as raw SQL reads it. */
export type ServiceRow = RowOf<Service, typeof SERVICE_COLUMNS>;

/** An insert's row of `service`, in SERVICE_INSERT_COLUMNS' order. */
export const serviceRow = (assetId: string, service: ServiceValues): unknown[] => [
  assetId,
  service.port,
  service.protocol,
  service.name,
  service.product,
  service.version,
];
