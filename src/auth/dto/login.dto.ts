import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsEmailAddress, MAX_EMAIL_LENGTH } from '../../common/validators/email.validator.js';

export class LoginDto {
  @IsEmailAddress()
  @ApiProperty({
    maxLength: MAX_EMAIL_LENGTH,
    description: 'local@domain, a dotted domain not required; compared case-insensitively',
    example: 'admin@localhost',
  })
  email: string;

  // Only bounded here: a wrong password of any shape is a 401, not a 400.
  @IsString()
  @MaxLength(256)
  @ApiProperty({ format: 'password', maxLength: 256 })
  password: string;
}
