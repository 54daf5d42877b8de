import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { User } from './user.entity.js';

export enum DiagramVisibility {
  Private = 'private',
  Public = 'public',
}

@Entity('diagrams')
@Index(['createdAt', 'id'])
export class Diagram {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 16, default: DiagramVisibility.Private })
  visibility: DiagramVisibility;

  // A deleted owner's diagrams stay, ownerless: admins still see and manage them.
  @Index()
  @Column({ name: 'owner_id', type: 'varchar', length: 36, nullable: true })
  ownerId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'owner_id' })
  owner?: User;

  // Serialized JSON text rather than jsonb: kept exactly as given, key order included.
  @Column({ type: 'text', default: '{}' })
  content: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;
}
