import { IsIn, IsOptional } from 'class-validator';
import { ROLES, Role } from '../../common/role.js';
import { IsEmailAddress } from '../../common/validators/email.validator.js';
import { IsNewPassword } from '../../common/validators/password.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export class CreateUserDto {
  @IsEmailAddress()
  email: string;

  @IsText()
  name: string;

  @IsNewPassword()
  password: string;

  @IsOptional()
  @IsIn(ROLES)
  role?: Role;
}
