import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { FindingStatus, Severity } from '../../common/field-rules/finding-values.js';
import { MAX_ASSET_ID_LENGTH } from '../../common/field-rules/inventory-values.js';
import type { ActorColumns } from './actor-columns.js';
import { Asset } from './asset.entity.js';

/**
 * One vulnerability on one asset, from the first time it is reported until the asset is
 * deleted: its status (open, fixed, false positive, accepted), its sightings and its triage.
 * The asset's `vulnerabilities` are its open and accepted findings.
 */
@Entity('findings')
// The key: a vulnerability is on an asset or not; also an asset's findings, by id.
@Index(['assetId', 'vulnId'], { unique: true })
// The list by status and severity, highest score first, then id (its default order): score
// descending with the scoreless last, which TypeORM cannot declare; made by migration
// FindingCounts.
@Index('IDX_findings_status_score', { synchronize: false })
@Index(['vulnId'])
// The acceptances past their end (they read as open).
@Index(['acceptedUntil'])
// The open findings of a severity by opening (COALESCE(reopened_at, first_seen_at)): the
// overdue ones. An index on an expression, made by migration FindingCounts: TypeORM cannot
// declare it, and leaves it alone.
@Index('IDX_findings_due', { synchronize: false })
@Index(['firstSeenAt'])
// The fixed findings, last fixed first then by id (the list's order for sort=-fixedAt, with no
// fixedAt last), and those fixed since a time: descending order with the missing last, made
// by migration FindingsFixedOrder.
@Index('IDX_findings_fixed', { synchronize: false })
export class Finding {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'asset_id', type: 'varchar', length: MAX_ASSET_ID_LENGTH })
  assetId: string;

  // Deleting an asset deletes its findings in the database itself (their records stay).
  @ManyToOne(() => Asset, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset?: Asset;

  @Column({ name: 'vuln_id', type: 'varchar', length: 64 })
  vulnId: string;

  @Column({ type: 'double precision', nullable: true })
  score: number | null;

  /** The score's (severityOf), stored for the filters and the summary's counts. */
  @Column({ type: 'varchar', length: 8 })
  severity: Severity;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  summary: string | null;

  @Column({ name: 'published_date', type: 'date', nullable: true })
  publishedDate: string | null;

  /** As written: an acceptance past its acceptedUntil reads as open without a write. */
  @Column({ type: 'varchar', length: 16 })
  status: FindingStatus;

  @Column({ name: 'first_seen_at', type: Date })
  firstSeenAt: Date;

  @Column({ name: 'last_seen_at', type: Date })
  lastSeenAt: Date;

  @Column({ name: 'fixed_at', type: Date, nullable: true })
  fixedAt: Date | null;

  @Column({ name: 'reopened_at', type: Date, nullable: true })
  reopenedAt: Date | null;

  @Column({ name: 'reopen_count', type: 'integer', default: 0 })
  reopenCount: number;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  reason: string | null;

  @Column({ name: 'accepted_until', type: Date, nullable: true })
  acceptedUntil: Date | null;

  /** Who triaged it last, as they were then. */
  @Column({ name: 'triaged_by', type: 'simple-json', nullable: true })
  triagedBy: ActorColumns | null;
}
