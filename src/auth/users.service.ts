import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  updateChange,
  type ChangeInput,
  type ChangeOrigin,
} from '../database/history/change-origin.js';
import { InventoryWriter } from '../database/writer/inventory-writer.js';
import { ConflictError } from '../common/errors/conflict.error.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import { Role } from '../common/role.js';
import { ApiKeysRepository } from '../database/repositories/api-keys.repository.js';
import { DiagramsRepository } from '../database/repositories/diagrams.repository.js';
import {
  UsersRepository,
  type SessionUser,
  type UserChanges,
} from '../database/repositories/users.repository.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import type { CreateUserDto } from './dto/create-user.dto.js';
import type { UpdateUserDto } from './dto/update-user.dto.js';
import { toUserResponse } from './dto/user-response.dto.js';
import { toApiKeyResponse } from './dto/api-key-response.dto.js';
import { PasswordService } from './password.service.js';
import { toPrincipal } from './principal.mapper.js';
import { UserKind, type User } from '../database/entities/user.entity.js';

/** A person as an identity provider's ID token tells it. */
export interface IssuerIdentity {
  subject: string;
  email: string | null;
  name: string;
  role: Role;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly apiKeys: ApiKeysRepository,
    private readonly diagrams: DiagramsRepository,
    private readonly passwords: PasswordService,
    private readonly writer: InventoryWriter,
  ) {}

  findById(id: string): Promise<User | null> {
    return this.users.findById(id);
  }

  /** What authenticating a session token needs: it runs on every request. */
  findSessionUser(id: string): Promise<SessionUser | null> {
    return this.users.findSessionUser(id);
  }

  async getById(id: string): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw new NotFoundError(`user ${id} not found`);
    return user;
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users.findByEmail(email.toLowerCase());
  }

  /**
   * The person an identity provider signed in, by its `sub`: created on the first sign-in (no
   * password), its name and role set again at each one. A role taken from the last admin is a
   * ConflictError, as an admin's change would be.
   */
  async signInFromIssuer(
    origin: Omit<ChangeOrigin, 'caller'>,
    identity: IssuerIdentity,
  ): Promise<User> {
    const found = await this.users.findBySubject(identity.subject);
    const as = (user: User): ChangeOrigin => ({ ...origin, caller: toPrincipal(user) });
    if (found) {
      if (found.role === identity.role && found.name === identity.name) return found;
      return this.update(as(found), found.id, { role: identity.role, name: identity.name });
    }
    const now = new Date();
    const user: User = {
      id: randomUUID(),
      kind: UserKind.Person,
      email: identity.email?.toLowerCase() ?? null,
      name: identity.name,
      role: identity.role,
      passwordHash: null,
      tokenVersion: 0,
      createdAt: now,
      updatedAt: now,
      oidcSubject: identity.subject,
    };
    await this.insert(as(user), user);
    return user;
  }

  list(): Promise<User[]> {
    return this.users.list();
  }

  count(): Promise<number> {
    return this.users.count();
  }

  /** `origin` null: the bootstrap admin, made at start-up by no request, is not recorded. */
  async create(origin: ChangeOrigin | null, dto: CreateUserDto): Promise<User> {
    const kind = dto.kind ?? UserKind.Person;
    if (kind === UserKind.Service) {
      for (const field of ['email', 'password'] as const) {
        if (dto[field] !== undefined) {
          throw new InvalidInputError(`${field} must be left out: a service account has none`);
        }
      }
    }
    const now = new Date();
    const user: User = {
      id: randomUUID(),
      kind,
      email: dto.email?.toLowerCase() ?? null,
      name: dto.name,
      role: dto.role ?? Role.Viewer,
      passwordHash: dto.password === undefined ? null : await this.passwords.hash(dto.password),
      tokenVersion: 0,
      createdAt: now,
      updatedAt: now,
      oidcSubject: null,
    };
    await this.insert(origin, user);
    return user;
  }

  /** Writes a new user and its creation record; a taken e-mail is a ConflictError. */
  private async insert(origin: ChangeOrigin | null, user: User): Promise<void> {
    try {
      await this.writer.write(origin, async (unit) => {
        await this.users.insert(unit.manager, user);
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
  }

  async update(origin: ChangeOrigin, id: string, dto: UpdateUserDto): Promise<User> {
    const changes: UserChanges = { updatedAt: new Date() };
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.role !== undefined) changes.role = dto.role;
    if (dto.password !== undefined) changes.passwordHash = await this.passwords.hash(dto.password);
    return this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const before = await this.users.findById(id, manager);
      if (!before) throw new NotFoundError(`user ${id} not found`);
      if (before.kind === UserKind.Service && dto.password !== undefined) {
        throw new InvalidInputError('password must be left out: a service account has none');
      }
      const changed = await this.users.update(manager, id, changes, {
        // A password set by an admin ends the user's sessions, as a change by the user does.
        endSessions: dto.password !== undefined,
        keepLastAdmin: dto.role !== undefined && dto.role !== Role.Admin,
      });
      if (!changed) throw new ConflictError('the last admin cannot lose the admin role');
      const after = (await this.users.findById(id, manager))!;
      unit.record(...userChange(before, after, dto.password !== undefined));
      return after;
    });
  }

  async remove(origin: ChangeOrigin, id: string): Promise<void> {
    await this.writer.write(origin, async (unit) => {
      const { manager } = unit;
      const before = await this.users.findById(id, manager);
      if (!before) throw new NotFoundError(`user ${id} not found`);
      // Read first: its keys go with it, and its diagrams lose their owner, by foreign key.
      const keys = await this.apiKeys.findOwnedBy(manager, id);
      const diagrams = await this.diagrams.findOwnedBy(manager, id);
      if (!(await this.users.delete(manager, id))) {
        throw new ConflictError('the last admin cannot be deleted');
      }
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
      const before = await this.users.findById(id, manager);
      if (!before) return;
      await this.users.update(
        manager,
        id,
        { passwordHash, updatedAt: new Date() },
        { endSessions: true, keepLastAdmin: false },
      );
      const after = (await this.users.findById(id, manager))!;
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
