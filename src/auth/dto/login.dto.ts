import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsEmailAddress } from '../../common/validators/email.validator.js';

export class LoginDto {
  @IsEmailAddress()
  @ApiProperty({
    format: 'email',
    maxLength: 320,
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
