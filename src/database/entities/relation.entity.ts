import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { RelationDirection } from '../../common/field-rules/inventory-values.js';
import { Asset } from './asset.entity.js';

@Entity('relations')
// Ingestion matches relations on (source, target, type); the list filters on either end.
@Index(['sourceAssetId', 'targetAssetId', 'type'])
@Index(['createdAt', 'id'])
export class Relation {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'source_asset_id', type: 'varchar', length: 200 })
  sourceAssetId: string;

  // Deleting an asset deletes every relation touching it, in the database itself.
  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'source_asset_id' })
  sourceAsset?: Asset;

  @Index()
  @Column({ name: 'target_asset_id', type: 'varchar', length: 200 })
  targetAssetId: string;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'target_asset_id' })
  targetAsset?: Asset;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  @Column({ type: 'varchar', length: 8, default: RelationDirection.Bi })
  direction: RelationDirection;

  @Column({ type: 'varchar', length: 32, nullable: true })
  protocol: string | null;

  @Column({ name: 'to_ports', type: 'varchar', length: 1000, nullable: true })
  toPorts: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;
}
