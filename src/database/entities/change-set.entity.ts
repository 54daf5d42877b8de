import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { ActorColumns } from './actor-columns.js';

/**
 * One write's origin, shared by every record it made: who wrote, through which request and,
 * for an ingestion, which run. Kept once a write rather than on each of its records, which an
 * ingestion makes by the hundred thousand.
 */
@Entity('change_sets')
// The actorId filter of the change history.
@Index(['actor.userId'])
export class ChangeSet {
  @PrimaryGeneratedColumn()
  id: number;

  @Column(() => ActorColumns, { prefix: false })
  actor: ActorColumns;

  @Column({ name: 'request_id', type: 'varchar', length: 128 })
  requestId: string;

  @Index()
  @Column({ name: 'run_id', type: 'varchar', length: 36, nullable: true })
  runId: string | null;
}
