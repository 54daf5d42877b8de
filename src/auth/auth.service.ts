import type { ChangeOrigin } from '../database/history/change-origin.js';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { UnauthorizedError } from '../common/errors/unauthorized.error.js';
import type { LoginResponse } from './dto/login-response.dto.js';
import { toUserResponse } from './dto/user-response.dto.js';
import { PasswordService } from './password.service.js';
import type { SessionTokenPayload } from './strategies/jwt.strategy.js';
import { UserKind, type User } from '../database/entities/user.entity.js';
import { UsersService } from './users.service.js';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly passwords: PasswordService,
    private readonly jwt: JwtService,
  ) {}

  /**
   * One answer for an unknown e-mail and a wrong password, reached in about the same time; a
   * service account never signs in, whatever its row holds.
   */
  async login(email: string, password: string): Promise<LoginResponse> {
    const user = await this.users.findByEmail(email);
    const valid = await this.passwords.verify(user?.passwordHash ?? null, password);
    if (!user || !valid || user.kind !== UserKind.Person) {
      throw new UnauthorizedError('Invalid e-mail or password');
    }
    return this.session(user);
  }

  /** A new session of `user`: its token and the user, as a sign-in answers them. */
  async session(user: User): Promise<LoginResponse> {
    return { token: await this.issueToken(user), user: toUserResponse(user) };
  }

  async changePassword(
    origin: ChangeOrigin,
    currentPassword: string,
    newPassword: string,
  ): Promise<void> {
    const user = await this.users.findById(origin.caller.userId);
    if (!user || !(await this.passwords.verify(user.passwordHash, currentPassword))) {
      throw new InvalidInputError('currentPassword is not the current password');
    }
    await this.users.setPassword(origin, newPassword);
  }

  private issueToken(user: User): Promise<string> {
    const payload: SessionTokenPayload = { sub: user.id, ver: user.tokenVersion };
    return this.jwt.signAsync(payload);
  }
}
