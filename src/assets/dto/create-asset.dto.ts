import {
  IsOptionalIp,
  IsOptionalRiskScore,
} from '../../common/validators/asset-fields.validator.js';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { IsText } from '../../common/validators/text.validator.js';

export class CreateAssetDto {
  @IsText()
  name: string;

  @IsOptionalIp()
  ip?: string | null;

  @IsOptionalText(64)
  type?: string | null;

  @IsOptionalText()
  vendor?: string | null;

  @IsOptionalText()
  model?: string | null;

  @IsOptionalRiskScore()
  risk_score?: number | null;

  @IsOptionalText()
  site?: string | null;

  @IsOptionalText()
  os_version?: string | null;
}
