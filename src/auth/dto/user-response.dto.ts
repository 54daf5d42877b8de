import { ApiProperty } from '@nestjs/swagger';
import { Role } from '../../common/role.js';
import type { User } from '../../database/entities/user.entity.js';

/** A user, never with its password or hash. */
export class UserResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ description: 'Lower-cased', example: 'ci@example.com' })
  email: string;

  @ApiProperty({ example: 'CI' })
  name: string;

  @ApiProperty({ enum: Role, enumName: 'Role', example: Role.Editor })
  role: Role;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export function toUserResponse(user: User): UserResponse {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
