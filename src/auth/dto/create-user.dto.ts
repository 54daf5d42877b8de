import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ROLES, Role } from '../../common/role.js';
import { MIN_PASSWORD_LENGTH } from '../../config/app-config.js';
import { IsEmailAddress } from '../../common/validators/email.validator.js';
import { IsNewPassword } from '../../common/validators/password.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export class CreateUserDto {
  @IsEmailAddress()
  @ApiProperty({
    format: 'email',
    maxLength: 320,
    description: 'local@domain, a dotted domain not required; stored lower-cased, unique',
    example: 'ci@example.com',
  })
  email: string;

  @IsText()
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'CI' })
  name: string;

  @IsNewPassword()
  @ApiProperty({ format: 'password', minLength: MIN_PASSWORD_LENGTH, maxLength: 256 })
  password: string;

  @IsOptional()
  @IsIn(ROLES)
  @ApiPropertyOptional({ enum: Role, enumName: 'Role', default: Role.Viewer })
  role?: Role;
}
