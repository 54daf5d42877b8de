import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What is expected of a feed (a run's `source`), and whether it was last seen late. */
@Entity('feeds')
export class Feed {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  /** How often a run of it should succeed; null: no expectation. */
  @Column({ name: 'expected_every_seconds', type: 'integer', nullable: true })
  expectedEverySeconds: number | null;

  /** When the expectation was set: a feed that never succeeded is late from then. */
  @Column({ name: 'expected_since', type: Date, nullable: true })
  expectedSince: Date | null;

  /** Since when it is late, once its feed.late was sent; null while on time. */
  @Column({ name: 'late_since', type: Date, nullable: true })
  lateSince: Date | null;
}
