import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How far a periodic check for events has looked (`finding.overdue:<severity>`: the openings
 * before which findings of that severity were found overdue): each check looks only past it.
 */
@Entity('event_marks')
export class EventMark {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'checked_until', type: Date })
  checkedUntil: Date;
}
