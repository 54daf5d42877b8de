import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Finding } from './finding.entity.js';

/**
 * One feed that reports a finding (its `sources`). A row of its own, as an asset's: the
 * `source` filter finds a feed's findings through the index, and a run adds or removes its own.
 */
@Entity('finding_sources')
@Index(['source'])
export class FindingSource {
  @PrimaryColumn({ name: 'finding_id', type: 'varchar', length: 36 })
  findingId: string;

  @ManyToOne(() => Finding, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'finding_id' })
  finding?: Finding;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  source: string;

  /** The order the feeds first reported the finding in; a feed back after leaving goes last. */
  @Column({ type: 'integer' })
  position: number;
}
