import { IsString, MaxLength } from 'class-validator';
import { IsEmailAddress } from '../../common/validators/email.validator.js';

export class LoginDto {
  @IsEmailAddress()
  email: string;

  // Only bounded here: a wrong password of any shape is a 401, not a 400.
  @IsString()
  @MaxLength(256)
  password: string;
}
