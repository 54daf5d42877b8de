import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Role } from '../../common/role.js';

/** A person signs in; a service account (a CI job, a scanner) only holds API keys. */
export enum UserKind {
  Person = 'person',
  Service = 'service',
}

@Entity('users')
export class User {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  // Stored lower-cased so that the unique index compares e-mails case-insensitively; null for a
  // service account (both databases let a unique column hold several nulls).
  @Column({ type: 'varchar', length: 320, unique: true, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  role: Role;

  // null: no password sign-in (a service account).
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  // Carried in session tokens; bumped on a password change so that older tokens are refused.
  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;

  @Column({ type: 'varchar', length: 16, default: UserKind.Person })
  kind: UserKind;

  // The identity provider's `sub` of a person who signs in through it; null otherwise.
  @Column({ name: 'oidc_subject', type: 'varchar', length: 255, unique: true, nullable: true })
  oidcSubject: string | null;
}
