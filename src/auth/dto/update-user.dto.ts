import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateUserDto } from './create-user.dto.js';

/** The e-mail is fixed; a field left out stays as it is, and null is refused for every one. */
export class UpdateUserDto extends PartialType(OmitType(CreateUserDto, ['email']), {
  skipNullProperties: false,
}) {}
