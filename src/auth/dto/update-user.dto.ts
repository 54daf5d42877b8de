import { IsIn, IsOptional } from 'class-validator';
import { ROLES, Role } from '../../common/role.js';
import { IsNewPassword } from '../../common/validators/password.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export class UpdateUserDto {
  @IsOptional()
  @IsText()
  name?: string;

  @IsOptional()
  @IsIn(ROLES)
  role?: Role;

  @IsOptional()
  @IsNewPassword()
  password?: string;
}
