import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MAX_ASSET_ID_LENGTH } from '../../common/field-rules/inventory-values.js';
import { Asset } from './asset.entity.js';

/**
 * The id of an asset merged into another (`POST /api/assets/:id/merge`), and the asset it was
 * merged into: an ingestion item that still names the old id updates that asset. Only
 * ingestion resolves them; the API answers 404 for a merged id.
 */
@Entity('asset_aliases')
export class AssetAlias {
  @PrimaryColumn({ name: 'alias_id', type: 'varchar', length: MAX_ASSET_ID_LENGTH })
  aliasId: string;

  // A merge into an asset itself merged later moves its aliases on (the merge re-points them).
  @Index()
  @Column({ name: 'asset_id', type: 'varchar', length: MAX_ASSET_ID_LENGTH })
  assetId: string;

  // Deleting the asset deletes its aliases in the database itself.
  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset?: Asset;
}
