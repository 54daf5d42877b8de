import { IsOptional } from 'class-validator';
import { IsFutureTimestamp } from '../../common/validators/future-timestamp.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export class CreateApiKeyDto {
  @IsText()
  name: string;

  @IsOptional()
  @IsFutureTimestamp()
  expiresAt?: string;
}
