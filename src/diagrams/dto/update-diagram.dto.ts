import { IsIn } from 'class-validator';
import { IsJsonObject } from '../../common/validators/json-object.validator.js';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { DiagramVisibility } from '../diagram.entity.js';
import { DIAGRAM_VISIBILITIES, MAX_CONTENT_BYTES } from './create-diagram.dto.js';

export class UpdateDiagramDto {
  @OmittableButNotNull()
  @IsText()
  name?: string;

  @IsOptionalText(2000)
  description?: string | null;

  @OmittableButNotNull()
  @IsIn(DIAGRAM_VISIBILITIES)
  visibility?: DiagramVisibility;

  @OmittableButNotNull()
  @IsJsonObject(MAX_CONTENT_BYTES)
  content?: Record<string, unknown>;
}
