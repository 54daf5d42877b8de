import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository, type QueryDeepPartialEntity } from 'typeorm';
import {
  updateChange,
  type ChangeInput,
  type ChangeOrigin,
} from '../database/history/change-origin.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { ConflictError } from '../common/errors/conflict.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { Role } from '../common/role.js';
import { Dialect } from '../database/dialect/dialect.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import type { CreateUserDto } from './dto/create-user.dto.js';
import type { UpdateUserDto } from './dto/update-user.dto.js';
import { toUserResponse } from './dto/user-response.dto.js';
import { Diagram } from '../database/entities/diagram.entity.js';
import { ApiKey } from '../database/entities/api-key.entity.js';
import { toApiKeyResponse } from './dto/api-key-response.dto.js';
import { PasswordService } from './password.service.js';
import { User } from '../database/entities/user.entity.js';

/**
 * Checked in the same statement that writes, so that two requests cannot both pass it. On
 * PostgreSQL the admin rows are locked first, or two admins deleting each other at once would
 * each still count two; SQLite runs one write at a time and has no FOR UPDATE.
 */
function notLastAdmin(dialect: Dialect): string {
  const admins = `SELECT id FROM users WHERE role = :admin ${dialect.lockRows}`;
  return `(role <> :admin OR (SELECT COUNT(*) FROM (${admins}) admins) > 1)`;
}

/** A user as a session token's check needs it. */
export type SessionUser = Pick<User, 'id' | 'email' | 'name' | 'role' | 'tokenVersion'>;

@Injectable()
export class UsersService {
  private readonly notLastAdmin: string;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly passwords: PasswordService,
    private readonly writer: InventoryWriter,
    dialect: Dialect,
  ) {
    this.notLastAdmin = notLastAdmin(dialect);
  }

  findById(id: string): Promise<User | null> {
    return this.users.findOneBy({ id });
  }

  /**
   * What authenticating a session token needs, by hand-written SQL: it runs on every request,
   * and TypeORM building the same SELECT each time cost a noticeable share of a short one.
   */
  async findSessionUser(id: string): Promise<SessionUser | null> {
    const { manager } = this.users;
    const [sql, values] = manager.connection.driver.escapeQueryWithParameters(
      'SELECT id, email, name, role, token_version FROM users WHERE id = :id',
      { id },
    );
    const [row] = await manager.query<
      (Omit<SessionUser, 'tokenVersion'> & { token_version: number })[]
    >(sql, values);
    return row ? { ...row, tokenVersion: Number(row.token_version) } : null;
  }

  async getById(id: string): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw new NotFoundError(`user ${id} not found`);
    return user;
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findOneBy({ email: email.toLowerCase() });
  }

  list(): Promise<User[]> {
    return this.users.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  count(): Promise<number> {
    return this.users.count();
  }

  /** `origin` null: the bootstrap admin, made at start-up by no request, is not recorded. */
  async create(origin: ChangeOrigin | null, dto: CreateUserDto): Promise<User> {
    const now = new Date();
    const user = this.users.create({
      id: randomUUID(),
      email: dto.email.toLowerCase(),
      name: dto.name,
      role: dto.role ?? Role.Viewer,
      passwordHash: await this.passwords.hash(dto.password),
      tokenVersion: 0,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.writer.write(origin, async (unit) => {
        const { manager } = unit;
        await manager.getRepository(User).insert(user);
        unit.record({
          action: 'create',
          objectType: 'user',
          objectId: user.id,
          before: null,
          after: toUserResponse(user),
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('email is already in use');
      throw error;
    }
    return user;
  }

  async update(origin: ChangeOrigin, id: string, dto: UpdateUserDto): Promise<User> {
    const changes: QueryDeepPartialEntity<User> = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.role !== undefined) changes.role = dto.role;
    if (dto.password !== undefined) {
      changes.passwordHash = await this.passwords.hash(dto.password);
      // A password set by an admin ends the user's sessions, as a change by the user does.
      changes.tokenVersion = () => 'token_version + 1';
    }
    return this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const users = manager.getRepository(User);
      const before = await users.findOneBy({ id });
      if (!before) throw new NotFoundError(`user ${id} not found`);
      const query = users.createQueryBuilder().update(User).set(changes).where('id = :id', { id });
      if (dto.role !== undefined && dto.role !== Role.Admin) {
        query.andWhere(this.notLastAdmin, { admin: Role.Admin });
      }
      const result = await query.execute();
      if (!result.affected) throw new ConflictError('the last admin cannot lose the admin role');
      const after = (await users.findOneBy({ id }))!;
      unit.record(...userChange(before, after, dto.password !== undefined));
      return after;
    });
  }

  async remove(origin: ChangeOrigin, id: string): Promise<void> {
    await this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const users = manager.getRepository(User);
      const before = await users.findOneBy({ id });
      if (!before) throw new NotFoundError(`user ${id} not found`);
      // Read first: its keys go with it, and its diagrams lose their owner, by foreign key.
      const keys = await manager
        .getRepository(ApiKey)
        .find({ where: { userId: id }, order: { id: 'ASC' } });
      const diagrams = await manager
        .getRepository(Diagram)
        .find({ where: { ownerId: id }, order: { id: 'ASC' } });
      const result = await users
        .createQueryBuilder()
        .delete()
        .from(User)
        .where('id = :id', { id })
        .andWhere(this.notLastAdmin, { admin: Role.Admin })
        .execute();
      if (!result.affected) throw new ConflictError('the last admin cannot be deleted');
      unit.record(
        ...keys.map((key): ChangeInput => ({
          action: 'delete',
          objectType: 'apiKey',
          objectId: key.id,
          before: toApiKeyResponse(key),
          after: null,
        })),
        ...diagrams.map((diagram): ChangeInput => ({
          action: 'update',
          objectType: 'diagram',
          objectId: diagram.id,
          before: { ownerId: id },
          after: { ownerId: null },
        })),
        {
          action: 'delete',
          objectType: 'user',
          objectId: id,
          before: toUserResponse(before),
          after: null,
        },
      );
    });
  }

  /** The user's own change of password (the caller is the user). */
  async setPassword(origin: ChangeOrigin, password: string): Promise<void> {
    const id = origin.caller.userId;
    const passwordHash = await this.passwords.hash(password);
    await this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const users = manager.getRepository(User);
      const before = await users.findOneBy({ id });
      if (!before) return;
      await users
        .createQueryBuilder()
        .update(User)
        .set({ passwordHash, tokenVersion: () => 'token_version + 1', updatedAt: new Date() })
        .where('id = :id', { id })
        .execute();
      const after = (await users.findOneBy({ id }))!;
      unit.record(...userChange(before, after, true));
    });
  }
}

/**
 * A user's update record: the answer's fields that changed and, since the hash never appears,
 * `passwordChanged` (false before, true after) when the password was set.
 */
function userChange(before: User, after: User, passwordChanged: boolean): ChangeInput[] {
  const was: object = {
    ...toUserResponse(before),
    ...(passwordChanged && { passwordChanged: false }),
  };
  const is: object = {
    ...toUserResponse(after),
    ...(passwordChanged && { passwordChanged: true }),
  };
  return updateChange('user', after.id, was, is);
}
