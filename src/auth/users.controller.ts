import type { ChangeOrigin } from '../database/history/change-origin.js';
import { Origin } from '../changes/change-origin.decorator.js';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Roles } from '../common/decorators/roles.decorator.js';
import {
  ApiAuthenticated,
  ApiErrorResponses,
  ApiJsonBodyErrors,
} from '../common/openapi/api-error-responses.decorator.js';
import { NoQueryPipe } from '../common/pipes/no-query.pipe.js';
import { Role } from '../common/role.js';
import { CreateUserDto } from './dto/create-user.dto.js';
import { UpdateUserDto } from './dto/update-user.dto.js';
import { toUserResponse, UserResponse } from './dto/user-response.dto.js';
import { UsersService } from './users.service.js';

const USER_ID = ApiParam({ name: 'id', description: 'The user id (a UUID)' });
const NO_USER = { status: 404, description: 'No user has this id' } as const;

/** Admins only. */
@ApiTags('users')
@ApiAuthenticated()
@ApiErrorResponses({ status: 403, description: 'The caller is not an admin' })
@Roles(Role.Admin)
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({ summary: 'List users (admin)', description: 'Oldest first.' })
  @ApiOkResponse({ type: [UserResponse] })
  async list(@Query(NoQueryPipe) _query: undefined): Promise<UserResponse[]> {
    return (await this.users.list()).map(toUserResponse);
  }

  @Post()
  @ApiOperation({ summary: 'Create a user (admin)' })
  @ApiCreatedResponse({ type: UserResponse, description: 'The created user' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses({ status: 409, description: 'The e-mail is already in use' })
  async create(@Origin() origin: ChangeOrigin, @Body() dto: CreateUserDto): Promise<UserResponse> {
    return toUserResponse(await this.users.create(origin, dto));
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Update a user (admin)',
    description:
      'Any of `name`, `role`, `password`. A new password ends every session of the user; a new role applies at once.',
  })
  @USER_ID
  @ApiOkResponse({ type: UserResponse, description: 'The updated user' })
  @ApiJsonBodyErrors()
  @ApiErrorResponses(NO_USER, {
    status: 409,
    description: 'The last admin cannot lose the admin role',
  })
  async update(
    @Origin() origin: ChangeOrigin,
    @Param('id') id: string,
    @Body() dto: UpdateUserDto,
  ): Promise<UserResponse> {
    return toUserResponse(await this.users.update(origin, id, dto));
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Delete a user (admin)',
    description:
      'Its session tokens and API keys stop working at once; its diagrams stay, with `ownerId: null`.',
  })
  @USER_ID
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrorResponses(NO_USER, { status: 409, description: 'The last admin cannot be deleted' })
  remove(@Origin() origin: ChangeOrigin, @Param('id') id: string): Promise<void> {
    return this.users.remove(origin, id);
  }
}
