import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Asset } from './asset.entity.js';

/** What an identifier row holds: an address, a MAC address, a host name or a tag. */
export type IdentifierKind = 'ip' | 'mac' | 'host' | 'tag';

/**
 * One value of an asset's identity lists or tags, kept beside the asset's own lists so that
 * both databases find assets by it through a plain B-tree: ingestion's matching (`ip`, `mac`,
 * `hostname`) and the list's filters (`cidr`, `mac`, `hostname`, `tag`). An address is held as
 * its sortable key (`4` or `6`, then its bytes in hexadecimal), so that a prefix is a range of
 * the index; a MAC address, a host name and a tag as their normalized text.
 */
@Entity('asset_identifiers')
// Matching and the filters: the assets holding a value, or a range of addresses.
@Index(['kind', 'value'])
export class AssetIdentifier {
  // The primary key leads with the asset: its rows are replaced and probed per asset.
  @PrimaryColumn({ name: 'asset_id', type: 'varchar', length: 200 })
  assetId: string;

  // Deleting an asset deletes its identifiers in the database itself.
  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset?: Asset;

  @PrimaryColumn({ type: 'varchar', length: 8 })
  kind: IdentifierKind;

  @PrimaryColumn({ type: 'varchar', length: 253 })
  value: string;
}
