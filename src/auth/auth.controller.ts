import type { ChangeOrigin } from '../database/history/change-origin.js';
import { Origin } from '../changes/change-origin.decorator.js';
import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator.js';
import { KeyScope, UnrestrictedKey } from '../common/decorators/key-scope.decorator.js';
import { LoginRateLimit } from '../common/decorators/login-rate-limit.decorator.js';
import { Public } from '../common/decorators/public.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { LOGIN_RATE_LIMIT_HEADERS } from '../common/openapi/headers.js';
import type { Principal } from '../common/principal.js';
import { AuthService } from './auth.service.js';
import { ChangePasswordDto } from './dto/change-password.dto.js';
import { LoginResponse } from './dto/login-response.dto.js';
import { LoginDto } from './dto/login.dto.js';
import { toUserResponse, UserResponse } from './dto/user-response.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('auth')
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
  @ApiOperation({
    summary: 'Log in with e-mail and password',
    description:
      'Public. Answers a session token for `Authorization: Bearer <token>`. Limited to LOGIN_RATE_LIMIT attempts per client address per window.',
  })
  @ApiOkResponse({ type: LoginResponse, headers: LOGIN_RATE_LIMIT_HEADERS })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(
    {
      status: 401,
      description: 'Wrong e-mail or password (the same answer, in about the same time)',
    },
    { status: 429, description: 'Too many login attempts from this address' },
  )
  login(@Body() dto: LoginDto): Promise<LoginResponse> {
    return this.auth.login(dto.email, dto.password);
  }

  @Get('me')
  @KeyScope()
  @ApiOperation({ summary: 'The signed-in user', description: 'An API key needs no scope here.' })
  @ApiAuthenticated()
  @ApiOkResponse({ type: UserResponse })
  async me(@CurrentUser() caller: Principal): Promise<UserResponse> {
    return toUserResponse(await this.users.getById(caller.userId));
  }

  @Post('password')
  @UnrestrictedKey()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: "Change the signed-in user's password",
    description:
      'Every session token issued before stops working (log in again); API keys keep working.',
  })
  @ApiAuthenticated()
  @ApiNoContentResponse({ description: 'Changed' })
  @ApiJsonBodyErrors(
    'Invalid body, unknown properties included, or a wrong currentPassword (a 400, not a 401)',
  )
  changePassword(@Origin() origin: ChangeOrigin, @Body() dto: ChangePasswordDto): Promise<void> {
    return this.auth.changePassword(origin, dto.currentPassword, dto.newPassword);
  }
}
