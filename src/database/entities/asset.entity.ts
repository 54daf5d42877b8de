import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import {
  MAX_ASSET_ID_LENGTH,
  type AssetOrigin,
} from '../../common/field-rules/inventory-values.js';

@Entity('assets')
// Default order of the list: creation time, ties broken by id.
@Index(['createdAt', 'id'])
// PostgreSQL's trigram index of the searched columns, made by migration AssetSearch: TypeORM
// cannot declare it, and leaves it alone (SQLite's is a table of its own).
@Index('IDX_assets_search', { synchronize: false })
// Riskiest first, then by id (the list's order for sort=-risk_score, missing scores last: the
// dashboard's riskiest assets), made by migration AssetsRiskOrder.
@Index('IDX_assets_risk', { synchronize: false })
export class Asset {
  @PrimaryColumn({ type: 'varchar', length: MAX_ASSET_ID_LENGTH })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Index()
  @Column({ type: 'varchar', length: 45, nullable: true })
  ip: string | null;

  @Index()
  @Column({ type: 'varchar', length: 64, nullable: true })
  type: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  vendor: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  model: string | null;

  @Column({ name: 'risk_score', type: 'integer', nullable: true })
  riskScore: number | null;

  @Index()
  @Column({ type: 'varchar', length: 255, nullable: true })
  site: string | null;

  @Column({ name: 'os_version', type: 'varchar', length: 255, nullable: true })
  osVersion: string | null;

  // The ingestion feed that last wrote the asset, if any.
  @Index()
  @Column({ type: 'varchar', length: 100, nullable: true })
  source: string | null;

  /** `manual` when made through the API, `ingest` when an ingestion created it; never changes. */
  @Column({ type: 'varchar', length: 16, default: 'manual' })
  origin: AssetOrigin;

  // When an ingestion with a source first and last named the asset.
  @Column({ name: 'first_seen_at', type: Date, nullable: true })
  firstSeenAt: Date | null;

  @Column({ name: 'last_seen_at', type: Date, nullable: true })
  lastSeenAt: Date | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;

  // The identity lists (src/database/README.md, "Identity lists"): each its normalized values
  // separated by spaces, the first address equal to `ip`. Matching and the list's filters find
  // them through asset_identifiers, which holds one row per value.
  @Column({ type: 'text', default: '' })
  addresses: string;

  @Column({ name: 'mac_addresses', type: 'text', default: '' })
  macAddresses: string;

  @Column({ type: 'text', default: '' })
  hostnames: string;

  // Its tags, kept as the identity lists are: separated by spaces here, a row each (kind `tag`)
  // in asset_identifiers, which the list's `tag` filter looks up.
  @Column({ type: 'text', default: '' })
  tags: string;
}
