import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Asset } from './asset.entity.js';

/**
 * One feed that reports an asset (its `sources`). A row of its own rather than a list in the
 * asset's row: the `source` filter and deleteStale find a feed's assets through the index.
 */
@Entity('asset_sources')
@Index(['source'])
export class AssetSource {
  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 200 })
  assetId: string;

  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset?: Asset;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  source: string;

  /** The order the feeds first reported the asset in (0, 1, ...); a feed back after removal goes last. */
  @Column({ type: 'integer' })
  position: number;
}
