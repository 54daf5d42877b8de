import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsFutureTimestamp } from '../../common/validators/future-timestamp.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export class CreateApiKeyDto {
  @IsText()
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'nightly scan' })
  name: string;

  @IsOptional()
  @IsFutureTimestamp()
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'An ISO 8601 timestamp in the future; left out, the key never expires',
    example: '2027-12-31T00:00:00Z',
  })
  expiresAt?: string;
}
