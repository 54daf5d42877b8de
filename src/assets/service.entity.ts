import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Asset } from './asset.entity.js';

export const SERVICE_PROTOCOLS = ['tcp', 'udp', 'sctp'] as const;
export type ServiceProtocol = (typeof SERVICE_PROTOCOLS)[number];

/**
 * A network service an asset exposes, at most one per (port, protocol); the asset's list is
 * replaced as a whole. The list's `port` and `service` filters find assets through the indexes.
 */
@Entity('services')
@Index(['port'])
@Index(['name'])
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
