import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository, type QueryDeepPartialEntity } from 'typeorm';
import { Role } from '../common/role.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import type { CreateUserDto } from './dto/create-user.dto.js';
import type { UpdateUserDto } from './dto/update-user.dto.js';
import { PasswordService } from './password.service.js';
import { User } from './user.entity.js';

/**
 * Checked in the same statement that writes, so that two requests cannot both pass it. On
 * PostgreSQL the admin rows are locked first, or two admins deleting each other at once would
 * each still count two; SQLite runs one write at a time and has no FOR UPDATE.
 */
function notLastAdmin(postgres: boolean): string {
  const admins = `SELECT id FROM users WHERE role = :admin${postgres ? ' FOR UPDATE' : ''}`;
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
  ) {
    this.notLastAdmin = notLastAdmin(users.manager.connection.options.type === 'postgres');
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
    if (!user) throw new NotFoundException(`user ${id} not found`);
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

  async create(dto: CreateUserDto): Promise<User> {
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
      await this.users.insert(user);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException('email is already in use');
      throw error;
    }
    return user;
  }

  async update(id: string, dto: UpdateUserDto): Promise<User> {
    const changes: QueryDeepPartialEntity<User> = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.role !== undefined) changes.role = dto.role;
    if (dto.password !== undefined) {
      changes.passwordHash = await this.passwords.hash(dto.password);
      // A password set by an admin ends the user's sessions, as a change by the user does.
      changes.tokenVersion = () => 'token_version + 1';
    }
    const query = this.users
      .createQueryBuilder()
      .update(User)
      .set(changes)
      .where('id = :id', { id });
    if (dto.role !== undefined && dto.role !== Role.Admin) {
      query.andWhere(this.notLastAdmin, { admin: Role.Admin });
    }
    const result = await query.execute();
    const user = await this.findById(id);
    if (!user) throw new NotFoundException(`user ${id} not found`);
    if (!result.affected) throw new ConflictException('the last admin cannot lose the admin role');
    return user;
  }

  async remove(id: string): Promise<void> {
    const result = await this.users
      .createQueryBuilder()
      .delete()
      .from(User)
      .where('id = :id', { id })
      .andWhere(this.notLastAdmin, { admin: Role.Admin })
      .execute();
    if (result.affected) return;
    if (await this.findById(id)) throw new ConflictException('the last admin cannot be deleted');
    throw new NotFoundException(`user ${id} not found`);
  }

  async setPassword(id: string, password: string): Promise<void> {
    await this.users
      .createQueryBuilder()
      .update(User)
      .set({
        passwordHash: await this.passwords.hash(password),
        tokenVersion: () => 'token_version + 1',
        updatedAt: new Date(),
      })
      .where('id = :id', { id })
      .execute();
  }
}
