import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { MIN_PASSWORD_LENGTH } from '../../config/app-config.js';
import { IsNewPassword } from '../../common/validators/password.validator.js';

export class ChangePasswordDto {
  @IsString()
  @MaxLength(256)
  @ApiProperty({
    format: 'password',
    maxLength: 256,
    description: 'A wrong one is a 400 naming this field',
  })
  currentPassword: string;

  @IsNewPassword()
  @ApiProperty({ format: 'password', minLength: MIN_PASSWORD_LENGTH, maxLength: 256 })
  newPassword: string;
}
