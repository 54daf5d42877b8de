import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import { LoginRateLimit } from '../common/decorators/login-rate-limit.decorator.js';
import { Public } from '../common/decorators/public.decorator.js';
import type { Principal } from '../common/principal.js';
import { AuthService } from './auth.service.js';
import { ChangePasswordDto } from './dto/change-password.dto.js';
import type { LoginResponse } from './dto/login-response.dto.js';
import { LoginDto } from './dto/login.dto.js';
import { toUserResponse, type UserResponse } from './dto/user-response.dto.js';
import { UsersService } from './users.service.js';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
  ) {}

  @Public()
  @LoginRateLimit()
  @Post('login')
  @HttpCode(HttpStatus.OK)
  login(@Body() dto: LoginDto): Promise<LoginResponse> {
    return this.auth.login(dto.email, dto.password);
  }

  @Get('me')
  async me(@CurrentUser() caller: Principal): Promise<UserResponse> {
    return toUserResponse(await this.users.getById(caller.userId));
  }

  @Post('password')
  @HttpCode(HttpStatus.NO_CONTENT)
  changePassword(@CurrentUser() caller: Principal, @Body() dto: ChangePasswordDto): Promise<void> {
    return this.auth.changePassword(caller.userId, dto.currentPassword, dto.newPassword);
  }
}
