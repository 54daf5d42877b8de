import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ServiceProtocol } from '../../common/field-rules/inventory-values.js';
import { Asset } from './asset.entity.js';

/**
 * A network service an asset exposes, at most one per (port, protocol); the asset's list is
 * replaced as a whole.
 */
@Entity('services')
// The list's `port` and `service` filters: an EXISTS probe per asset on both columns (SQLite,
// without statistics, would otherwise take an index on name alone and read every service of
// that name for each asset), or a scan of one port's or name's rows (PostgreSQL).
@Index(['port', 'assetId'])
@Index(['name', 'assetId'])
export class Service {
  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 200 })
  assetId: string;

  // Deleting an asset deletes its services in the database itself.
  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset?: Asset;

  @PrimaryColumn({ type: 'integer' })
  port: number;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  protocol: ServiceProtocol;

  @Column({ type: 'varchar', length: 64, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  product: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  version: string | null;
}
