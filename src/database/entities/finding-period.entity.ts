import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Severity } from '../../common/field-rules/finding-values.js';
import { Finding } from './finding.entity.js';

/**
 * A span of time a finding was open or accepted: from its opening (first sighting, reopening,
 * or a false positive's triage undone) until it was fixed or judged a false positive (NULL:
 * still). The trend counts them; a finding's own row keeps only its last reopening.
 */
@Entity('finding_periods')
@Index(['openedAt'])
@Index(['closedAt'])
export class FindingPeriod {
  @PrimaryColumn({ name: 'finding_id', type: 'varchar', length: 36 })
  findingId: string;

  @ManyToOne(() => Finding, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'finding_id' })
  finding?: Finding;

  @PrimaryColumn({ name: 'opened_at', type: Date })
  openedAt: Date;

  @Column({ name: 'closed_at', type: Date, nullable: true })
  closedAt: Date | null;

  /**
   * Its finding's (kept equal by a trigger on findings): the trend's counts by severity are
   * kept per period, and a period deleted with its finding must still say where it counted.
   */
  @Column({ type: 'varchar', length: 8 })
  severity: Severity;
}
