import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ROLES, Role } from '../../common/role.js';
import { MIN_PASSWORD_LENGTH } from '../../config/app-config.js';
import { IsEmailAddress, MAX_EMAIL_LENGTH } from '../../common/validators/email.validator.js';
import { IsNewPassword } from '../../common/validators/password.validator.js';
import { SkipIfUndefined } from '../../common/validators/skip-if-undefined.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export class CreateUserDto {
  @IsEmailAddress()
  @ApiProperty({
    maxLength: MAX_EMAIL_LENGTH,
    description: 'local@domain, a dotted domain not required; stored lower-cased, unique',
    example: 'ci@example.com',
  })
  email: string;

  @IsText()
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'CI' })
  name: string;

  @IsNewPassword()
  @ApiProperty({
    format: 'password',
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: 256,
    description: 'A new one ends every session token of the user (its API keys keep working)',
  })
  password: string;

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
