import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { Role } from '../../common/role.js';
import { AppDataSource } from '../app-data-source.js';
import type { Dialect } from '../dialect/dialect.js';
import { User } from '../entities/user.entity.js';
import { runNamed } from '../sql-reads.js';
import { SESSION_USER_PROPERTIES, USER_COLUMNS } from '../tables/users.table.js';

/** A user as a session token's check needs it. */
export type SessionUser = Pick<User, (typeof SESSION_USER_PROPERTIES)[number]>;

/** The properties of a user a change may set (a new password's session end aside). */
export type UserChanges = Partial<Pick<User, 'name' | 'role' | 'passwordHash' | 'updatedAt'>>;

/** How an update of a user is written. */
export interface UserUpdate {
  /** Ends the user's sessions: the token version moves on. */
  endSessions: boolean;
  /** Writes nothing if the user is the last admin (the change takes the admin role away). */
  keepLastAdmin: boolean;
}

/**
 * Checked in the same statement that writes, so that two requests cannot both pass it. On
 * PostgreSQL the admin rows are locked first, or two admins deleting each other at once would
 * each still count two; SQLite runs one write at a time and has no FOR UPDATE.
 */
function notLastAdmin(dialect: Dialect): string {
  const admins = `SELECT id FROM users WHERE role = :admin ${dialect.lockRows}`;
  return `(role <> :admin OR (SELECT COUNT(*) FROM (${admins}) admins) > 1)`;
}

/**
 * Hand-written: it runs on every request, and TypeORM building the same SELECT each time cost a
 * noticeable share of a short one.
 */
const SESSION_USER = `SELECT ${SESSION_USER_PROPERTIES.map((property) => USER_COLUMNS[property].name).join(', ')} FROM users WHERE id = :id`;

/** The users table. Writes take the manager of the writer's unit. */
@Injectable()
export class UsersRepository {
  private readonly notLastAdmin: string;

  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {
    this.notLastAdmin = notLastAdmin(dataSource.dialect);
  }

  findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<User | null> {
    return manager.getRepository(User).findOneBy({ id });
  }

  /** What authenticating a session token needs of its user. */
  async findSessionUser(id: string): Promise<SessionUser | null> {
    const [row] = await runNamed<Omit<SessionUser, 'tokenVersion'> & { token_version: number }>(
      this.dataSource.manager,
      SESSION_USER,
      { id },
    );
    return row ? { ...row, tokenVersion: Number(row.token_version) } : null;
  }

  /** The user of this e-mail, as stored (lower-cased). */
  findByEmail(email: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ email });
  }

  /** The user an identity provider's `sub` names. */
  findBySubject(oidcSubject: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ oidcSubject });
  }

  /** Every user, oldest first. */
  list(): Promise<User[]> {
    return this.dataSource.getRepository(User).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  count(): Promise<number> {
    return this.dataSource.getRepository(User).count();
  }

  async insert(manager: EntityManager, user: User): Promise<void> {
    await manager.getRepository(User).insert(user);
  }

  /** Whether it changed the user: with `keepLastAdmin`, not the last admin. */
  async update(
    manager: EntityManager,
    id: string,
    changes: UserChanges,
    { endSessions, keepLastAdmin }: UserUpdate,
  ): Promise<boolean> {
    const query = manager
      .createQueryBuilder()
      .update(User)
      .set(endSessions ? { ...changes, tokenVersion: () => 'token_version + 1' } : changes)
      .where('id = :id', { id });
    if (keepLastAdmin) query.andWhere(this.notLastAdmin, { admin: Role.Admin });
    return Boolean((await query.execute()).affected);
  }

  /** Whether it deleted the user: not the last admin. */
  async delete(manager: EntityManager, id: string): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .delete()
      .from(User)
      .where('id = :id', { id })
      .andWhere(this.notLastAdmin, { admin: Role.Admin })
      .execute();
    return Boolean(result.affected);
  }
}
