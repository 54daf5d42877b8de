import { IsIn } from 'class-validator';
import { IsJsonObject } from '../../common/validators/json-object.validator.js';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { DiagramVisibility } from '../diagram.entity.js';

/** Largest accepted `content`, measured as its UTF-8 JSON serialization. */
export const MAX_CONTENT_BYTES = 1024 * 1024;

export const DIAGRAM_VISIBILITIES = Object.values(DiagramVisibility);

export class CreateDiagramDto {
  @IsText()
  name: string;

  @IsOptionalText(2000)
  description?: string | null;

  // Left out means the default; null is refused rather than read as "the default".
  @OmittableButNotNull()
  @IsIn(DIAGRAM_VISIBILITIES)
  visibility?: DiagramVisibility;

  @OmittableButNotNull()
  @IsJsonObject(MAX_CONTENT_BYTES)
  content?: Record<string, unknown>;
}
