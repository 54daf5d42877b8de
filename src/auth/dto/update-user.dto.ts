import { OmitType, PartialType } from '@nestjs/swagger';
import { CreateUserDto } from './create-user.dto.js';

/**
 * The e-mail and the kind are fixed; a field left out stays as it is, and null is refused for
 * every one. A service account takes no password.
 */
export class UpdateUserDto extends PartialType(OmitType(CreateUserDto, ['email', 'kind']), {
  skipNullProperties: false,
}) {}
