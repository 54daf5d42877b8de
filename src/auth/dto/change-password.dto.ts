import { IsString, MaxLength } from 'class-validator';
import { IsNewPassword } from '../../common/validators/password.validator.js';

export class ChangePasswordDto {
  @IsString()
  @MaxLength(256)
  currentPassword: string;

  @IsNewPassword()
  newPassword: string;
}
