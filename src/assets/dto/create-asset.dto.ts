import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IP_PROPERTY } from '../../common/openapi/properties.js';
import {
  IsOptionalIp,
  IsOptionalRiskScore,
} from '../../common/validators/asset-fields.validator.js';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

/** `id`, `source` and `vulnerabilities` are not writable here: ingestion writes them. */
export class CreateAssetDto {
  @IsText()
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'core-switch' })
  name: string;

  @IsOptionalIp()
  @ApiPropertyOptional(IP_PROPERTY)
  ip?: string | null;

  @IsOptionalText(64)
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64, example: 'switch' })
  type?: string | null;

  @IsOptionalText()
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'Cisco' })
  vendor?: string | null;

  @IsOptionalText()
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'Catalyst 9300' })
  model?: string | null;

  @IsOptionalRiskScore()
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: 100,
    example: 40,
  })
  risk_score?: number | null;

  @IsOptionalText()
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'paris' })
  site?: string | null;

  @IsOptionalText()
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'IOS-XE 17.9' })
  os_version?: string | null;
}
