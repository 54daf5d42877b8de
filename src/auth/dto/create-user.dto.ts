import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import { ROLES, Role } from '../../common/role.js';
import { MIN_PASSWORD_LENGTH } from '../../config/app-config.js';
import { UserKind } from '../../database/entities/user.entity.js';
import { IsEmailAddress, MAX_EMAIL_LENGTH } from '../../common/validators/email.validator.js';
import { IsNewPassword } from '../../common/validators/password.validator.js';
import { SkipIfUndefined } from '../../common/validators/skip-if-undefined.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

const USER_KINDS: readonly UserKind[] = [UserKind.Person, UserKind.Service];

/** A person's e-mail and password are required; a service account has neither. */
const unlessService = () =>
  ValidateIf((user: CreateUserDto, value: unknown) =>
    user.kind === UserKind.Service ? value !== undefined : true,
  );

export class CreateUserDto {
  @SkipIfUndefined()
  @IsIn(USER_KINDS)
  @ApiPropertyOptional({
    enum: UserKind,
    enumName: 'UserKind',
    description:
      'person when left out. A service account (a CI job, a scanner) has no e-mail and no password: it cannot sign in, and holds API keys an admin makes for it',
  })
  kind?: UserKind;

  @unlessService()
  @IsEmailAddress()
  @ApiPropertyOptional({
    maxLength: MAX_EMAIL_LENGTH,
    description:
      'Required for a person, refused for a service account. local@domain, a dotted domain not required; stored lower-cased, unique',
    example: 'ci@example.com',
  })
  email?: string;

  @IsText()
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'CI' })
  name: string;

  @unlessService()
  @IsNewPassword()
  @ApiPropertyOptional({
    format: 'password',
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: 256,
    description:
      'Required for a person, refused for a service account. A new one ends every session token of the user (its API keys keep working)',
  })
  password?: string;

  // The role column cannot hold null: left out means viewer, null is refused.
  @SkipIfUndefined()
  @IsIn(ROLES)
  @ApiPropertyOptional({
    enum: Role,
    enumName: 'Role',
    description:
      'viewer when a user is created without it; demoting the last admin is a 409; a new role applies at once',
  })
  role?: Role;
}
