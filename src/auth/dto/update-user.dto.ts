import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { ROLES, Role } from '../../common/role.js';
import { MIN_PASSWORD_LENGTH } from '../../config/app-config.js';
import { IsNewPassword } from '../../common/validators/password.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';

export class UpdateUserDto {
  // Omitted leaves it as it is; null cannot be stored (it was a 500).
  @OmittableButNotNull()
  @IsText()
  @ApiPropertyOptional({ minLength: 1, maxLength: 255, example: 'CI' })
  name?: string;

  @OmittableButNotNull()
  @IsIn(ROLES)
  @ApiPropertyOptional({
    enum: Role,
    enumName: 'Role',
    description: 'Demoting the last admin is a 409; the new role applies at once',
  })
  role?: Role;

  @OmittableButNotNull()
  @IsNewPassword()
  @ApiPropertyOptional({
    format: 'password',
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: 256,
    description: 'Ends every session token of the user (its API keys keep working)',
  })
  password?: string;
}
