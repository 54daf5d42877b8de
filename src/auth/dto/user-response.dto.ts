import { ApiProperty } from '@nestjs/swagger';
import { Role } from '../../common/role.js';
import { UserKind, type User } from '../../database/entities/user.entity.js';

/** A user, never with its password or hash. */
export class UserResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Lower-cased; null for a service account',
    example: 'ci@example.com',
  })
  email: string | null;

  @ApiProperty({ example: 'CI' })
  name: string;

  @ApiProperty({ enum: Role, enumName: 'Role', example: Role.Editor })
  role: Role;

  @ApiProperty({
    enum: UserKind,
    enumName: 'UserKind',
    description: 'A person signs in; a service account only holds API keys',
  })
  kind: UserKind;

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
    kind: user.kind,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}
